/**
 * Live output relayed over the bus (a hook test's, a warm workspace's warm hooks'): a burst of
 * small writes becomes one message, output is split to fit the bus's message size, and every
 * message goes out in order, after the output written before it.
 *
 * The bus is slower than a command that prints without pause (`yes`), and nothing else bounds
 * a warm hook's live output, so what waits to be published is capped: past the cap output is
 * skipped, and a line saying how much goes out once there is room again (or before the next
 * message). The hooks' own logs and results keep their output either way.
 */
import type { EventBus } from './bus';

// JSON escaping can grow a character to 6 bytes; 1,000 characters stay under the bus limit.
export const CHUNK_CHARS = 1000;
const FLUSH_MS = 50;
/** Characters of output waiting for the bus (pending or being published) at most. */
export const MAX_BACKLOG_CHARS = 256 * 1024;

export interface OutputBatcher<M> {
  /** Queues output; it goes out within FLUSH_MS, or at once when a lot is pending. */
  output(chunk: string): void;
  /** Sends pending output, then `message`. */
  send(message: M): void;
  /** Sends pending output now. */
  flush(): void;
  /** Resolves when everything sent so far is published (failures go to `onError`). */
  settled(): Promise<void>;
  /** Characters queued and not yet published. */
  readonly backlog: number;
}

export const skippedNotice = (count: number) => `\n[hangar] ${count} characters of live output skipped: the event bus fell behind\n`;

export function createOutputBatcher<M>(
  bus: EventBus,
  channel: string,
  outputMessage: (text: string) => M,
  onError: (err: unknown) => void,
  maxBacklogChars = MAX_BACKLOG_CHARS,
): OutputBatcher<M> {
  let pending = '';
  /** Characters handed to `publish` and not yet published. */
  let inFlight = 0;
  let skipped = 0;
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();

  const publish = (message: M, chars = 0) => {
    inFlight += chars;
    chain = chain
      .then(() => bus.publish(channel, JSON.stringify(message)))
      .catch(onError)
      .then(() => void (inFlight -= chars));
  };
  const noteSkipped = () => {
    if (skipped === 0) return;
    pending += skippedNotice(skipped);
    skipped = 0;
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    noteSkipped();
    for (let i = 0; i < pending.length; i += CHUNK_CHARS) {
      const text = pending.slice(i, i + CHUNK_CHARS);
      publish(outputMessage(text), text.length);
    }
    pending = '';
  };

  return {
    output(chunk) {
      if (!chunk) return;
      if (pending.length + inFlight + chunk.length > maxBacklogChars) {
        skipped += chunk.length;
        return;
      }
      noteSkipped();
      pending += chunk;
      if (pending.length >= CHUNK_CHARS * 4) flush();
      else timer ??= setTimeout(flush, FLUSH_MS);
    },
    send(message) {
      flush();
      publish(message);
    },
    flush,
    settled: () => chain,
    get backlog() {
      return pending.length + inFlight;
    },
  };
}
