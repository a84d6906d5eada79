// The vault feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { vaultKeyring } from './keys';
export { rotateMasterKey } from './rotate';
export { vaultRouter } from './router';
export { secretBox, type TSecretBox } from './secret-box';
