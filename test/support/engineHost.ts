/**
 * Another machine, for tests that need a second worker host: a network namespace of its own with
 * its own Docker engine (`dockerd` with its own socket, data root, exec root and bridges, and its
 * own iptables, as on a separate machine), joined to this machine by a point-to-point link.
 *
 *   this machine  10.216.<n>.1 ──link── 10.216.<n>.2  the engine host
 *
 * What runs on the engine host (its worker, via `spawn`) reaches this machine's services only at
 * the link's near address, so the services that listen on loopback here (PostgreSQL, the Temporal
 * dev server, Redis) are relayed there with `expose`; the API listens on every interface and is
 * reached directly. Nothing of the engine host's is reachable from here but what it listens on at
 * its own address (its worker's preview relay, say): its containers sit behind its own Docker
 * bridges, as they would on another machine.
 *
 * Needs root and iproute2. A host left behind by a killed run (the namespace, the link, a dockerd
 * and containerd still running from the exec root) is cleared before a new one starts, so its
 * data root (kept between runs: the sandbox image is loaded once) is never opened twice.
 */
import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { TcpRelay } from './tcpRelay';
import { until } from './wait';

const run = promisify(execFile);

export interface EngineHost {
  /** The host's name, `h<n>`: its namespace is `hangar-h<n>`. */
  readonly name: string;
  readonly namespace: string;
  /** `DOCKER_HOST` for its engine (a unix socket, reachable from here and from inside). */
  readonly dockerHost: string;
  readonly docker: Docker;
  /** This machine's end of the link: where the engine host reaches it. */
  readonly nearAddress: string;
  /** The engine host's own address on the link. */
  readonly farAddress: string;
  /** Its engine's log file. */
  readonly engineLog: string;
  /** Runs a command on the engine host (inside its network namespace). */
  spawn(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** Makes a TCP service of this machine reachable from the engine host at `nearAddress`:<returned port>. */
  expose(target: { host: string; port: number }): Promise<number>;
  /** Copies an image from this machine's engine unless the engine host holds the same one (same id) already. */
  loadImage(image: string, from: Docker): Promise<void>;
  /** Stops its engine (SIGTERM, as `systemctl stop docker`; `SIGKILL` as a crash) and waits for it. */
  stopEngine(signal?: NodeJS.Signals): Promise<void>;
  /** Starts its engine again on the same data, and waits until it answers. */
  startEngine(): Promise<void>;
  /** Removes every container of its engine, stops the engine, the relays, the link and the namespace. */
  remove(): Promise<void>;
}

const LINK_PREFIX = '10.216';
const STATE_ROOT = '/var/lib/hangar-test-engines';
const EXEC_ROOT = '/run/hangar-test-engines';

const ip = (...args: string[]) => run('ip', args);
const quietly = (work: Promise<unknown>) => work.then(() => undefined, () => undefined);

function pidOf(pidfile: string): number | null {
  if (!existsSync(pidfile)) return null;
  const pid = Number(readFileSync(pidfile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Pids of processes whose command line mentions `needle` (a containerd under the host's exec root). */
async function processesMentioning(needle: string): Promise<number[]> {
  const { stdout } = await run('pgrep', ['-f', needle]).catch(() => ({ stdout: '' }));
  return stdout.split('\n').map(Number).filter((pid) => pid > 0 && pid !== process.pid);
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

async function waitGone(pids: number[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    if (alive.length === 0) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts engine host number `n` (1–250). */
export async function startEngineHost(n: number): Promise<EngineHost> {
  if (!Number.isInteger(n) || n < 1 || n > 250) throw new Error(`engine host number ${n} is not in 1–250`);
  const name = `h${n}`;
  const namespace = `hangar-${name}`;
  const near = `hgt${n}a`;
  const far = `hgt${n}b`;
  const nearAddress = `${LINK_PREFIX}.${n}.1`;
  const farAddress = `${LINK_PREFIX}.${n}.2`;
  const dataRoot = join(STATE_ROOT, name);
  const execRoot = join(EXEC_ROOT, name);
  const socket = join(execRoot, 'docker.sock');
  const pidfile = join(execRoot, 'dockerd.pid');
  const engineLog = join(STATE_ROOT, `${name}.log`);
  const dockerHost = `unix://${socket}`;
  const docker = new Docker({ socketPath: socket });
  const relays: TcpRelay[] = [];
  let engine: ChildProcess | null = null;

  // nsenter joins the namespace's network only; `ip netns exec` would also remount /sys, which
  // hides the cgroup hierarchy that dockerd needs.
  const inside = (command: string, args: string[], options: SpawnOptions = {}) =>
    spawn('nsenter', [`--net=/run/netns/${namespace}`, '--', command, ...args], options);

  async function stopEngine(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const pid = pidOf(pidfile);
    const containerds = await processesMentioning(join(execRoot, 'containerd'));
    if (pid) signalQuietly(pid, signal);
    if (pid && !(await waitGone([pid], 60_000))) throw new Error(`${name}'s dockerd (pid ${pid}) did not stop within 60 s`);
    // dockerd stops the containerd it manages when it stops cleanly; a killed one leaves it
    // holding the metadata lock, and the next dockerd would wait on it.
    if (signal === 'SIGKILL' || !(await waitGone(containerds, 10_000))) for (const c of containerds) signalQuietly(c, 'SIGKILL');
    await waitGone(containerds, 10_000);
    engine = null;
  }

  async function startEngine(): Promise<void> {
    mkdirSync(dataRoot, { recursive: true });
    mkdirSync(execRoot, { recursive: true });
    const log = openSync(engineLog, 'a');
    engine = inside(
      'dockerd',
      [
        `--host=${dockerHost}`,
        `--data-root=${dataRoot}`,
        `--exec-root=${execRoot}`,
        `--pidfile=${pidfile}`,
        // Its own docker0, in its own namespace; distinct from this machine's only for readability.
        `--bip=10.217.${n}.1/24`,
        `--cgroup-parent=hangar-test-engine-${name}`,
      ],
      { stdio: ['ignore', log, log], detached: true },
    );
    engine.unref();
    const exited = new Promise<string>((done) => engine!.once('exit', (code, signal) => done(`exited (${code ?? signal})`)));
    const answered = until(`${name}'s Docker engine to answer`, async () => (await docker.ping().then(() => true, () => false)) || undefined, 120_000);
    const outcome = await Promise.race([answered.then(() => null), exited]);
    if (outcome) throw new Error(`${name}'s dockerd ${outcome}; its log: ${engineLog}\n${readFileSync(engineLog, 'utf8').slice(-3000)}`);
  }

  async function clear(): Promise<void> {
    await stopEngine('SIGTERM').catch(() => stopEngine('SIGKILL'));
    await quietly(ip('link', 'del', near));
    await quietly(ip('netns', 'del', namespace));
  }

  await clear();
  await ip('netns', 'add', namespace);
  await ip('link', 'add', near, 'type', 'veth', 'peer', 'name', far);
  await ip('link', 'set', far, 'netns', namespace);
  await ip('addr', 'add', `${nearAddress}/30`, 'dev', near);
  await ip('link', 'set', near, 'up');
  const inNamespace = (...args: string[]) => run('ip', ['netns', 'exec', namespace, ...args]);
  await inNamespace('ip', 'addr', 'add', `${farAddress}/30`, 'dev', far);
  await inNamespace('ip', 'link', 'set', far, 'up');
  await inNamespace('ip', 'link', 'set', 'lo', 'up');
  await inNamespace('ip', 'route', 'add', 'default', 'via', nearAddress);
  await startEngine();

  return {
    name,
    namespace,
    dockerHost,
    docker,
    nearAddress,
    farAddress,
    engineLog,
    spawn: inside,
    async expose(target) {
      const relay = new TcpRelay(target, { host: nearAddress, port: 0 });
      await relay.open();
      relays.push(relay);
      return relay.port;
    },
    async loadImage(image, from) {
      // By id, not name: setup rebuilds the machine's image when its inputs change, and the
      // engine host's data root (kept between runs) would otherwise keep serving the old one.
      const wanted = (await from.getImage(image).inspect()).Id;
      const held = await docker.getImage(image).inspect().then((i) => i.Id, () => null);
      if (held === wanted) return;
      const tar = await from.getImage(image).get();
      const loading = await docker.loadImage(tar);
      await new Promise<void>((done, failed) => docker.modem.followProgress(loading, (err: Error | null) => (err ? failed(err) : done())));
      const loaded = (await docker.getImage(image).inspect()).Id;
      if (loaded !== wanted) throw new Error(`${name} holds ${image} as ${loaded} after loading ${wanted}`);
      // The replaced copy, unless a container still uses it.
      if (held) await quietly(docker.getImage(held).remove());
    },
    stopEngine,
    startEngine,
    async remove() {
      if (pidOf(pidfile)) {
        const containers = await docker.listContainers({ all: true }).catch(() => []);
        await Promise.all(containers.map((c) => quietly(docker.getContainer(c.Id).remove({ force: true }))));
      }
      await Promise.all(relays.map((relay) => relay.cut()));
      await clear();
    },
  };
}
