/**
 * Live output relayed over the bus (a hook test's, a warm workspace's warm hooks'): a burst of
 * small writes becomes one message, output is split to fit the bus's message size, and every
 * message goes out in order, after the output written before it.
 */
import type { EventBus } from './bus';

// JSON escaping can grow a character to 6 bytes; 1,000 characters stay under the bus limit.
export const CHUNK_CHARS = 1000;
const FLUSH_MS = 50;

export interface OutputBatcher<M> {
  /** Queues output; it goes out within FLUSH_MS, or at once when a lot is pending. */
  output(chunk: string): void;
  /** Sends pending output, then `message`. */
  send(message: M): void;
  /** Resolves when everything sent so far is published (failures go to `onError`). */
  settled(): Promise<void>;
}

export function createOutputBatcher<M>(
  bus: EventBus,
  channel: string,
  outputMessage: (text: string) => M,
  onError: (err: unknown) => void,
): OutputBatcher<M> {
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();

  const publish = (message: M) => {
    chain = chain.then(() => bus.publish(channel, JSON.stringify(message))).catch(onError);
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    for (let i = 0; i < pending.length; i += CHUNK_CHARS) publish(outputMessage(pending.slice(i, i + CHUNK_CHARS)));
    pending = '';
  };

  return {
    output(chunk) {
      if (!chunk) return;
      pending += chunk;
      if (pending.length >= CHUNK_CHARS * 4) flush();
      else timer ??= setTimeout(flush, FLUSH_MS);
    },
    send(message) {
      flush();
      publish(message);
    },
    settled: () => chain,
  };
}
