export { hookTestWorkflow } from './hookTest';
export { workspaceWorkflow } from './workspace';
export { warmPoolWorkflow } from './warmPool';
export { automationRunWorkflow } from './run';
export { automationScheduleWorkflow } from './automation';
export { debounceWindowWorkflow } from './debounce';
export { automationCleanupWorkflow } from './cleanup';
export { canvasWorkflow } from './canvas';
