/** Canvas reads and the blob keys of a replica (workflows/shared.ts). */
import type { HostPlacement } from './hosts';

/** One short workflow per canvas request: the API waits for its result. */
export const canvasWorkflowId = (requestId: string) => `canvas/${requestId}`;

/** Every blob of a replica starts with this prefix, so deleting it finds them all. */
export const replicaBlobPrefix = (replicaId: string) => `replicas/${replicaId}/`;
export const canvasCopyKey = (replicaId: string, copyId: string) => `${replicaBlobPrefix(replicaId)}canvas/${copyId}`;
export const mediaBlobKey = (replicaId: string, mediaId: string) => `${replicaBlobPrefix(replicaId)}media/${mediaId}`;

/** `host`: the workspace's host (the API reads it from the replica); absent, the shared queue. */
export type CanvasInput =
  | { requestId: string; replicaId: string; op: 'list'; host?: HostPlacement }
  | { requestId: string; replicaId: string; op: 'read'; filename: string; maxBytes: number; contentType: string; host?: HostPlacement };

export interface CanvasListResult {
  items: Array<{ filename: string; sizeBytes: number }>;
}

/** A read's bytes are in the blob store under `storageKey`, never in the result. */
export type CanvasReadResult = { state: 'missing' } | { state: 'tooLarge'; sizeBytes: number } | { state: 'read'; sizeBytes: number; storageKey: string };
