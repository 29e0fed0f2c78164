/**
 * Live news of one warm-pool workspace, from the worker building it to the API processes
 * holding `GET /v1/warm-pool-workspaces/{id}/stream`: its warm hooks' output (batched by
 * src/events/outputBatcher.ts) and its status changes. A status message only says "look
 * again": the database row stays the truth, so a lost message costs latency, not correctness.
 */
import type { EventBus } from './bus';
import { createOutputBatcher } from './outputBatcher';

export type WarmWorkspaceMessage = { t: 'output'; d: string } | { t: 'status'; status: string };

export const warmWorkspaceChannel = (entryId: string) => `warm_ws_${entryId.replace(/-/g, '')}`;

export interface WarmWorkspacePublisher {
  output(chunk: string): void;
  /** Flushes pending output first, so the status follows the output it ended. */
  status(status: string): Promise<void>;
  /**
   * Ends a build: publishes every pending output, then runs `write` (the row's final status),
   * then announces `status` when `write` answers that it changed the row. A follower that
   * re-reads the row and finds it final has been sent all output by then; announced after the
   * write, that output could still be on its way when the follower sees the row and closes.
   */
  finish(status: string, write: () => Promise<boolean>): Promise<boolean>;
}

export function createWarmWorkspacePublisher(bus: EventBus, entryId: string, onError: (err: unknown) => void): WarmWorkspacePublisher {
  const batcher = createOutputBatcher<WarmWorkspaceMessage>(bus, warmWorkspaceChannel(entryId), (d) => ({ t: 'output', d }), onError);
  const announce = async (status: string) => {
    batcher.send({ t: 'status', status });
    await batcher.settled();
  };
  return {
    output: (chunk) => batcher.output(chunk),
    status: announce,
    async finish(status, write) {
      batcher.flush();
      await batcher.settled();
      const changed = await write();
      if (changed) await announce(status);
      return changed;
    },
  };
}

/** One status change announced on its own (entries retired or claimed outside a build). */
export async function announceWarmWorkspaceStatus(bus: EventBus, entryIds: string[], status: string, onError: (err: unknown) => void): Promise<void> {
  for (const id of entryIds) await bus.publish(warmWorkspaceChannel(id), JSON.stringify({ t: 'status', status } satisfies WarmWorkspaceMessage)).catch(onError);
}
