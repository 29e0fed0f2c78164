export { hookTestWorkflow } from './hookTest';
export { workspaceWorkflow } from './workspace';
