import { onHost } from './activities';
import type { CanvasInput, CanvasListResult, CanvasReadResult } from './shared';

/** `canvas/{uuid}`: one listing or one file copy of a workspace's canvas; the API waits for it. */
export async function canvasWorkflow(input: CanvasInput): Promise<CanvasListResult | CanvasReadResult> {
  // On the workspace's host when the API named it; the shared queue otherwise.
  const { canvasReads } = onHost(input.host);
  if (input.op === 'list') return canvasReads.listCanvas({ replicaId: input.replicaId });
  return canvasReads.copyCanvasFile({ replicaId: input.replicaId, filename: input.filename, maxBytes: input.maxBytes, contentType: input.contentType });
}
