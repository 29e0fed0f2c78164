/**
 * Commands on the Docker engine's host, run through the engine: for a worker that reaches its
 * engine through a socket but does not run on that host's network itself (a worker in a
 * container, as in docker-compose.yml). A short-lived container in the host's network namespace,
 * with the host's root at /host and only the capabilities iptables needs, runs each command
 * under `chroot /host`: the host's own iptables, the binary and backend the engine uses, as the
 * operator's `hangar admin firewall | sh` would. The worker already holds the engine's socket,
 * which can do this and more, so this grants it nothing new.
 */
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { LABEL_ROLE } from '../docker';
import { FrameDemuxer } from '../stream';
import { execExitCode } from '../workspace/exec';
import { FirewallError, type HostCommands } from './firewall';

/** The label of the helper containers, so a worker that died mid-apply leaves one that is found. */
export const ENGINE_HOST_ROLE = 'engine-host';

/** How long one command may take before the helper is given up on. */
const COMMAND_TIMEOUT_MS = 60_000;

async function execIn(container: Docker.Container, argv: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const exec = await container.exec({ Cmd: ['chroot', '/host', ...argv], AttachStdin: stdin !== undefined, AttachStdout: true, AttachStderr: true, Tty: false });
  const stream = (await exec.start({ hijack: true, stdin: stdin !== undefined })) as Duplex;
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const demuxer = new FrameDemuxer((kind, payload) => (kind === 'stderr' ? err : out).push(payload));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.destroy();
      reject(new FirewallError(`a command on the Docker engine's host did not finish within ${COMMAND_TIMEOUT_MS / 1000} s: ${argv.join(' ')}`));
    }, COMMAND_TIMEOUT_MS);
    stream.on('data', (chunk: Buffer) => demuxer.push(chunk));
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    stream.once('end', done);
    stream.once('close', done);
    stream.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    if (stdin !== undefined) stream.end(stdin);
  });
  return { code: (await execExitCode(exec)) ?? 1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

/**
 * Runs `use` with the engine's host as a HostCommands, from a helper container made from
 * `image` (any image with `chroot` and `sleep`: the sandbox image, which every worker's engine
 * has), removed afterwards.
 */
export async function withEngineHost<T>(docker: Docker, image: string, use: (host: HostCommands) => Promise<T>): Promise<T> {
  let container: Docker.Container;
  try {
    container = await docker.createContainer({
      Image: image,
      Entrypoint: ['sleep'],
      Cmd: ['600'],
      User: '0',
      Labels: { [LABEL_ROLE]: ENGINE_HOST_ROLE },
      HostConfig: {
        NetworkMode: 'host',
        Binds: ['/:/host'],
        CapDrop: ['ALL'],
        CapAdd: ['NET_ADMIN', 'NET_RAW', 'SYS_CHROOT', 'DAC_OVERRIDE', 'SYS_MODULE'],
        AutoRemove: false,
      },
    });
    await container.start();
  } catch (err) {
    throw new FirewallError(`could not start a container on the Docker engine's host to install the egress rules there: ${(err as Error).message}`);
  }
  const host: HostCommands = { where: "the Docker engine's host", run: (argv, stdin) => execIn(container, argv, stdin) };
  try {
    return await use(host);
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}
