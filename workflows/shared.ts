/**
 * The contract between the API and the workers: task queue, workflow ids, input and output
 * types, one file per concept in `shared/`. The API imports values from this file only; other
 * workflow files are `import type`.
 */
export * from './shared/hosts';
export * from './shared/searchAttributes';
export * from './shared/workspaces';
export * from './shared/threads';
export * from './shared/environments';
export * from './shared/automations';
export * from './shared/canvas';
