export { hookTestWorkflow } from './hookTest';
