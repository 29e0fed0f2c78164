/**
 * The model server of bench/agents.ts in a process of its own, as a provider is: its work (a
 * long answer is hundreds of thousands of awaited writes) does not share the event loop of the
 * Hangar it is measured through. Started by `startModelProcess`, which forks this file; it
 * answers 'ok', or `longBytes` of text to a request whose prompt holds `longPrompt`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { startModelServer } from '../test/support/modelServer';

export interface ModelProcess {
  port: number;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Generation requests answered so far. */
  generations(): Promise<number>;
  close(): Promise<void>;
}

type ToChild = { type: 'generations' } | { type: 'close' };
type FromChild = { type: 'ready'; port: number } | { type: 'generations'; count: number };

function nextMessage(child: ChildProcess, type: FromChild['type']): Promise<FromChild> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromChild) => {
      if (m.type !== type) return;
      child.off('message', onMessage).off('exit', onExit);
      resolve(m);
    };
    const onExit = (code: number | null) => reject(new Error(`the model server process exited (${code})`));
    child.on('message', onMessage).once('exit', onExit);
  });
}

/** Forks the model server (on 0.0.0.0, so workspace containers reach it through the Docker host). */
export async function startModelProcess(options: { longPrompt: string; longBytes: number }): Promise<ModelProcess> {
  const child = fork(__filename, [], { env: { ...process.env, BENCH_MODEL_PROCESS: JSON.stringify(options) } });
  const { port } = (await nextMessage(child, 'ready')) as { port: number };
  const send = (m: ToChild) => child.send(m);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async generations() {
      const reply = nextMessage(child, 'generations');
      send({ type: 'generations' });
      return ((await reply) as { count: number }).count;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      send({ type: 'close' });
      await exited;
    },
  };
}

async function serve(options: { longPrompt: string; longBytes: number }): Promise<void> {
  const models = await startModelServer({ host: '0.0.0.0' });
  const long = 'lorem ipsum dolor sit amet, '.repeat(Math.ceil(options.longBytes / 28)).slice(0, options.longBytes);
  models.script((call) => (call.prompt.includes(options.longPrompt) ? long : 'ok'));
  process.on('message', (m: ToChild) => {
    if (m.type === 'generations') process.send!({ type: 'generations', count: models.modelCalls.length } satisfies FromChild);
    if (m.type === 'close') void models.close().then(() => process.exit(0));
  });
  // Ends with the bench, however it ends.
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready', port: models.port } satisfies FromChild);
}

if (process.env.BENCH_MODEL_PROCESS && process.send) {
  serve(JSON.parse(process.env.BENCH_MODEL_PROCESS)).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
