/**
 * Errors the workspace runtime raises on purpose, so activities can tell "provision it
 * again" (missing), "start it first" (not running) and "the operation itself failed" apart.
 */
import { dockerStatus } from '../errors';

export class WorkspaceMissingError extends Error {
  constructor(readonly replicaId: string) {
    super(`Workspace ${replicaId} has no container`);
    this.name = 'WorkspaceMissingError';
  }
}

export class WorkspaceNotRunningError extends Error {
  constructor(readonly replicaId: string) {
    super(`Workspace ${replicaId} is not running`);
    this.name = 'WorkspaceNotRunningError';
  }
}

/** A file write or checkout that ran and failed; `detail` is what the tool printed. */
export class WorkspaceOperationError extends Error {
  constructor(
    readonly operation: 'writeFiles' | 'checkout',
    message: string,
    readonly detail: string,
  ) {
    super(detail ? `${message}: ${detail}` : message);
    this.name = 'WorkspaceOperationError';
  }
}

/** Docker's 404 and 409 on a workspace's container, in the runtime's own words. */
export function workspaceDockerError(err: unknown, replicaId: string): unknown {
  const status = dockerStatus(err);
  if (status === 404) return new WorkspaceMissingError(replicaId);
  if (status === 409) return new WorkspaceNotRunningError(replicaId);
  return err;
}

/** Keeps credentials embedded in a clone URL out of messages and logs. */
export function redactUrl(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@');
}
