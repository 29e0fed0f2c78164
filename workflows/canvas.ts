import { canvasReads } from './activities';
import type { CanvasInput, CanvasListResult, CanvasReadResult } from './shared';

/** `canvas/{uuid}`: one listing or one file copy of a workspace's canvas; the API waits for it. */
export async function canvasWorkflow(input: CanvasInput): Promise<CanvasListResult | CanvasReadResult> {
  if (input.op === 'list') return canvasReads.listCanvas({ replicaId: input.replicaId });
  return canvasReads.copyCanvasFile({ replicaId: input.replicaId, filename: input.filename, maxBytes: input.maxBytes, contentType: input.contentType });
}
