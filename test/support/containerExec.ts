/** Runs a login-shell command as the workspace user in a container; answers stdout and stderr. */
import type Docker from 'dockerode';
import { createDocker } from '../../src/sandbox';

/** On this machine's engine unless `docker` names another (an engine host's). */
export async function execInContainer(containerName: string, cmd: string, docker: Docker = createDocker()): Promise<string> {
  const run = await docker.getContainer(containerName).exec({ Cmd: ['bash', '-lc', cmd], User: '1000', AttachStdout: true, AttachStderr: true });
  const stream = await run.start({});
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve) => {
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve());
  });
  // Strip Docker's 8-byte stream frame headers.
  const raw = Buffer.concat(chunks);
  const out: Buffer[] = [];
  for (let i = 0; i + 8 <= raw.length; ) {
    const size = raw.readUInt32BE(i + 4);
    out.push(raw.subarray(i + 8, i + 8 + size));
    i += 8 + size;
  }
  return Buffer.concat(out).toString();
}
