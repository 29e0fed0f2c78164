/**
 * Live output of a hook test, from the activity running it to the API process holding the
 * client's SSE stream (batched by src/events/outputBatcher.ts); a final `end` tells the relay
 * nothing more follows.
 */
import type { EventBus } from './bus';
import { createOutputBatcher } from './outputBatcher';

export type HookStreamMessage =
  | { t: 'output'; d: string }
  | { t: 'step'; step: string; state: 'started' | 'finished'; exit_code?: number }
  | { t: 'end' };

export const hookStreamChannel = (testId: string) => `hook_test_${testId.replace(/-/g, '')}`;

export interface HookStreamPublisher {
  output(chunk: string): void;
  step(step: string, state: 'started' | 'finished', exitCode?: number): void;
  /** Flushes pending output, then sends `end`. */
  finish(): Promise<void>;
}

export function createHookStreamPublisher(bus: EventBus, channel: string, onError: (err: unknown) => void): HookStreamPublisher {
  const batcher = createOutputBatcher<HookStreamMessage>(bus, channel, (d) => ({ t: 'output', d }), onError);
  return {
    output: (chunk) => batcher.output(chunk),
    step(step, state, exitCode) {
      batcher.send({ t: 'step', step, state, ...(exitCode === undefined ? {} : { exit_code: exitCode }) });
    },
    async finish() {
      batcher.send({ t: 'end' });
      await batcher.settled();
    },
  };
}
