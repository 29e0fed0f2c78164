/**
 * Live output of a hook test, from the activity running it to the API process holding the
 * client's SSE stream. Output is batched (a burst of small writes becomes one message) and
 * split to fit the bus's message size; a final `end` tells the relay nothing more follows.
 */
import type { EventBus } from './bus';

export type HookStreamMessage =
  | { t: 'output'; d: string }
  | { t: 'step'; step: string; state: 'started' | 'finished'; exit_code?: number }
  | { t: 'end' };

export const hookStreamChannel = (testId: string) => `hook_test_${testId.replace(/-/g, '')}`;

// JSON escaping can grow a character to 6 bytes; 1,000 characters stay under the bus limit.
const CHUNK_CHARS = 1000;
const FLUSH_MS = 50;

export interface HookStreamPublisher {
  output(chunk: string): void;
  step(step: string, state: 'started' | 'finished', exitCode?: number): void;
  /** Flushes pending output, then sends `end`. */
  finish(): Promise<void>;
}

export function createHookStreamPublisher(bus: EventBus, channel: string, onError: (err: unknown) => void): HookStreamPublisher {
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();

  const send = (message: HookStreamMessage) => {
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
      pending += chunk;
      if (pending.length >= CHUNK_CHARS * 4) flush();
      else timer ??= setTimeout(flush, FLUSH_MS);
    },
    step(step, state, exitCode) {
      flush();
      send({ t: 'step', step, state, ...(exitCode === undefined ? {} : { exit_code: exitCode }) });
    },
    async finish() {
      flush();
      send({ t: 'end' });
      await chain;
    },
  };
}
