/**
 * Live news of one warm-pool workspace, from the worker building it to the API processes
 * holding `GET /v1/warm-pool-workspaces/{id}/stream`: its warm hooks' output (batched, split
 * to fit the bus) and its status changes. A status message only says "look again": the
 * database row stays the truth, so a lost message costs latency, not correctness.
 */
import type { EventBus } from './bus';

export type WarmWorkspaceMessage = { t: 'output'; d: string } | { t: 'status'; status: string };

export const warmWorkspaceChannel = (entryId: string) => `warm_ws_${entryId.replace(/-/g, '')}`;

// JSON escaping can grow a character to 6 bytes; 1,000 characters stay under the bus limit.
const CHUNK_CHARS = 1000;
const FLUSH_MS = 50;

export interface WarmWorkspacePublisher {
  output(chunk: string): void;
  /** Flushes pending output first, so the status follows the output it ended. */
  status(status: string): Promise<void>;
}

export function createWarmWorkspacePublisher(bus: EventBus, entryId: string, onError: (err: unknown) => void): WarmWorkspacePublisher {
  const channel = warmWorkspaceChannel(entryId);
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();

  const send = (message: WarmWorkspaceMessage) => {
    chain = chain.then(() => bus.publish(channel, JSON.stringify(message))).catch(onError);
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    for (let i = 0; i < pending.length; i += CHUNK_CHARS) send({ t: 'output', d: pending.slice(i, i + CHUNK_CHARS) });
    pending = '';
  };

  return {
    output(chunk) {
      if (!chunk) return;
      pending += chunk;
      if (pending.length >= CHUNK_CHARS * 4) flush();
      else timer ??= setTimeout(flush, FLUSH_MS);
    },
    async status(status) {
      flush();
      send({ t: 'status', status });
      await chain;
    },
  };
}

/** One status change announced on its own (entries retired or claimed outside a build). */
export async function announceWarmWorkspaceStatus(bus: EventBus, entryIds: string[], status: string, onError: (err: unknown) => void): Promise<void> {
  for (const id of entryIds) await bus.publish(warmWorkspaceChannel(id), JSON.stringify({ t: 'status', status } satisfies WarmWorkspaceMessage)).catch(onError);
}
