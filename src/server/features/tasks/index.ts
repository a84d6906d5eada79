// The tasks feature's public surface: other features, the root router and the composition root
// import from here, never from the files beside it.
export { assigneeIdsOf } from './access';
export { uploadTargetForTask } from './attachments';
export { tasksRouter } from './router';
export { recordStagesDone } from './stage-done';
export { recordStatusChanges, type TStatusActor } from './status-history';
