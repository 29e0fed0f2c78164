/**
 * A small real TTY adapter for the terminal tests: `bash -l` as the `hangar` user on a TTY
 * `docker exec` into a plain container started from the sandbox image (`sleep infinity`).
 * The workspace runtime (src/sandbox/workspace) provides the production one.
 */
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { OpenTty, Tty } from '../../src/terminals/types';

export const TTY_TEST_IMAGE = process.env.HANGAR_SANDBOX_IMAGE || 'hangar-sandbox:latest';
const LABEL = 'dev.hangar.role';

export interface TtyContainer {
  name: string;
  remove(): Promise<void>;
}

export async function startTtyContainer(docker: Docker, name = `hangar-termtest-${randomUUID().slice(0, 8)}`): Promise<TtyContainer> {
  const container = await docker.createContainer({
    name,
    Image: TTY_TEST_IMAGE,
    Cmd: ['sleep', 'infinity'],
    Labels: { [LABEL]: 'terminal-test' },
    HostConfig: { Init: true, AutoRemove: false },
  });
  await container.start();
  return { name, remove: () => container.remove({ force: true }).then(() => undefined) };
}

async function execOnce(container: Docker.Container, cmd: string[]): Promise<void> {
  const exec = await container.exec({ Cmd: cmd, User: 'hangar', AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  stream.resume();
  await new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}

/** `containerFor` maps a workspace id to a container name; an unknown workspace has no TTY. */
export function createDockerOpenTty(docker: Docker, containerFor: (replicaId: string) => string | undefined): OpenTty {
  return async (replicaId, { cols, rows, env }) => {
    const name = containerFor(replicaId);
    if (!name) throw new Error('no container for this workspace');
    const container = docker.getContainer(name);
    // Docker has no "kill this exec": the shell records its pid so close() can signal it.
    const pidFile = `/tmp/.hangar-tty-${randomUUID()}`;
    const exec = await container.exec({
      Cmd: ['sh', '-c', `echo $$ > ${pidFile}; exec bash -l`],
      User: 'hangar',
      WorkingDir: '/home/hangar',
      Env: Object.entries(env ?? {}).map(([k, v]) => `${k}=${v}`),
      Tty: true,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = (await exec.start({ hijack: true, stdin: true, Tty: true })) as Duplex;
    await exec.resize({ h: rows, w: cols });

    const exitCallbacks: Array<(code: number | null) => void> = [];
    let exitCode: number | null | undefined;
    const ended = new Promise<void>((resolve) => {
      let done = false;
      const finish = async () => {
        if (done) return;
        done = true;
        exitCode = null;
        // The exec's status settles a moment after its stream ends.
        for (let i = 0; i < 40; i++) {
          const info = await exec.inspect().catch(() => null);
          if (!info) break;
          if (!info.Running) {
            exitCode = info.ExitCode ?? null;
            break;
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        for (const cb of exitCallbacks) cb(exitCode);
        resolve();
      };
      stream.once('end', () => void finish());
      stream.once('close', () => void finish());
      stream.once('error', () => void finish());
    });

    const tty: Tty = {
      write(data) {
        stream.write(data);
      },
      async resize(c, r) {
        await exec.resize({ h: r, w: c });
      },
      onData(cb) {
        stream.on('data', cb);
      },
      onExit(cb) {
        if (exitCode !== undefined) cb(exitCode);
        else exitCallbacks.push(cb);
      },
      async close() {
        if (exitCode !== undefined) return;
        await execOnce(container, ['sh', '-c', `kill -HUP $(cat ${pidFile}) 2>/dev/null; rm -f ${pidFile}`]).catch(() => undefined);
        const timer = setTimeout(() => stream.destroy(), 3_000);
        await ended;
        clearTimeout(timer);
      },
      pause: () => void stream.pause(),
      resume: () => void stream.resume(),
    };
    return tty;
  };
}
