export { vaultKeyFingerprint } from './agreement';
export { HEARTBEAT_MS, joinDeployment, LIVE_MS, listInstances, type TMembership } from './membership';
