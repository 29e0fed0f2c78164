/**
 * The workspace runtime: one long-lived, hardened container per replica (`hangar-ws-<id>`)
 * with its home on a volume of the same name, so stopping keeps everything and removing
 * forgets it. Everything in it runs as `hangar` through execs.
 *
 * Its parts, beside it: the container's coming and going (lifecycle.ts), what runs inside it
 * (commands.ts) and its removal (removal.ts), over what they share (engine.ts).
 */
import type Docker from 'dockerode';
import { workspaceCommands } from './commands';
import { workspaceEngine } from './engine';
import { workspaceLifecycle } from './lifecycle';
import { workspaceRemoval } from './removal';
import type { WorkspaceRuntime, WorkspaceRuntimeOptions } from './types';

export type * from './types';
export { WorkspaceMissingError, WorkspaceNotRunningError, WorkspaceOperationError } from './errors';
export { TIMEOUT_EXIT_CODE } from './exec';
export { HOOK_OUTPUT_PREVIEW_CHARS } from './hook';
export { SIZES, WORKSPACE_ROLE, LABEL_REPLICA, workspaceName } from './container';
export { WORKSPACES_DIR } from './checkout';

export function createWorkspaceRuntime(docker: Docker, options: WorkspaceRuntimeOptions): WorkspaceRuntime {
  if (!options.image) throw new Error('Workspace option image is required');
  const engine = workspaceEngine(docker, options);
  return { ...workspaceLifecycle(engine), ...workspaceCommands(engine), ...workspaceRemoval(engine) };
}
