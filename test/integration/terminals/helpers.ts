/**
 * The terminal suite's own small Hangar: the terminal routes on the suite's real database
 * and event bus, a terminal manager (as a worker runs it) with a real TTY adapter into a
 * plain sandbox container, and an HTTP server on an ephemeral port.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Docker from 'dockerode';
import { createApp } from '../../../src/http/app';
import { createLogger } from '../../../src/logger';
import { terminalRoutes } from '../../../src/http/routes/terminals';
import { createDocker } from '../../../src/sandbox';
import { createTerminalService } from '../../../src/services/terminals';
import { createTerminalClient, createTerminalManager, type TerminalClient, type TerminalManager } from '../../../src/terminals';
import { harness } from '../../support/harness';
import { newOrg, type Answer } from '../../support/http';
import { createDockerOpenTty, startTtyContainer, type TtyContainer } from '../../support/ttyDocker';
import { until } from '../../support/wait';

export interface Rig {
  baseUrl: string;
  docker: Docker;
  container: TtyContainer;
  /** Workspace id → container name; a workspace missing here has no container anywhere. */
  containers: Map<string, string>;
  manager: TerminalManager;
  client: TerminalClient;
  /** Every stream opened on this rig: closing the rig aborts those a test left open. */
  streams: Set<TerminalStream>;
  startManager(owner?: string): Promise<TerminalManager>;
  close(): Promise<void>;
}

export async function startRig(): Promise<Rig> {
  const h = harness();
  const docker = createDocker(process.env);
  const container = await startTtyContainer(docker);
  const containers = new Map<string, string>();
  const openTty = createDockerOpenTty(docker, (id) => containers.get(id));
  const managers: TerminalManager[] = [];
  const startManager = async (owner = `test-terminals-${randomUUID().slice(0, 8)}`) => {
    const manager = createTerminalManager({ bus: h.database.bus, repository: h.database.repos.terminalSessions, owner, openTty, logger: childLogger() });
    await manager.start();
    managers.push(manager);
    return manager;
  };
  const manager = await startManager();
  // Short deadlines keep the 503 tests quick; an open (a `docker exec`) gets longer, as nine of
  // them racing on a busy machine took more than 2 s.
  const client = createTerminalClient({ bus: h.database.bus, timeoutMs: 2_000, openTimeoutMs: 8_000, pingTimeoutMs: 500 });
  const app = createApp({
    logger: childLogger(),
    identity: h.api.services.identity,
    routes: terminalRoutes(createTerminalService({ client, repos: h.database.repos })),
    bodyLimitBytes: h.config.bodyLimitBytes,
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const streams = new Set<TerminalStream>();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    docker,
    container,
    containers,
    manager,
    client,
    streams,
    startManager,
    async close() {
      // A stream still open when the server drops its connection would fail unobserved.
      for (const stream of streams) stream.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      for (const m of managers) await m.close();
      await client.shutdown();
      await container.remove();
    },
  };
}

/** Log lines go where the suite keeps them (harness().logs), for post-mortems. */
function childLogger() {
  return createLogger({ level: 'debug', write: (line) => harness().logs.push(line) }).child({ suite: 'terminals' });
}

export function api(rig: Rig, key: string) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${key}`, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(rig.baseUrl + path, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    delete: (path: string) => call('DELETE', path),
  };
}

export interface Workspace {
  id: string;
  organizationId: string;
  orgKey: string;
  personalKey: string;
  userId: string;
  base: string;
}

/** A fresh organization with one workspace row (the replica API is not needed for terminals). */
export async function createWorkspace(rig: Rig, options: { status?: string; personal?: boolean; container?: boolean } = {}): Promise<Workspace> {
  const org = await newOrg('terminals');
  const id = randomUUID();
  await harness().database.db('replicas').insert({
    id,
    organization_id: org.organization_id,
    user_id: options.personal ? org.admin.user_id : null,
    name: `ws-${id.slice(0, 8)}`,
    status: options.status ?? 'active',
    coding_agent: 'agent_1',
    engine_secret_hash: 'not-used-by-these-tests',
  });
  if (options.container !== false) rig.containers.set(id, rig.container.name);
  return {
    id,
    organizationId: org.organization_id,
    orgKey: org.org_api_key,
    personalKey: org.admin.personal_api_key,
    userId: org.admin.user_id,
    base: `/v1/workspaces/${id}/terminal/sessions`,
  };
}

export interface SseEvent {
  event: string;
  id?: string;
  data: any;
}

export interface TerminalStream {
  status: number;
  body?: any;
  events: SseEvent[];
  /** All `output` data so far, concatenated. */
  output(): string;
  waitFor(what: string, test: (output: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openStream(rig: Rig, key: string, path: string, headers: Record<string, string> = {}): Promise<TerminalStream> {
  const controller = new AbortController();
  const res = await fetch(rig.baseUrl + path, { headers: { authorization: `Bearer ${key}`, ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const output = () => events.filter((e) => e.event === 'output').map((e) => e.data.data as string).join('');
  const stream: TerminalStream = {
    status: res.status,
    events,
    output,
    waitFor: (what, test, timeoutMs = 10_000) => until(what, async () => test(output()) && output(), timeoutMs, 20),
    ended: Promise.resolve(),
    close: () => {
      controller.abort();
      rig.streams.delete(stream);
    },
  };
  rig.streams.add(stream);
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    stream.body = await res.json();
    return stream;
  }
  stream.ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const lines = block.split('\n').filter((l) => l && !l.startsWith(':'));
          if (lines.length === 0) continue;
          const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
          events.push({ event: field('event') ?? 'message', id: field('id'), data: JSON.parse(field('data') ?? 'null') });
        }
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  })();
  return stream;
}

/** Occurrences of `needle` in `text`. */
export function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** The command lines running in the rig's container. */
export async function processes(rig: Rig): Promise<string> {
  const exec = await rig.docker.getContainer(rig.container.name).exec({ Cmd: ['ps', '-eo', 'args'], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((resolve) => stream.once('end', resolve));
  return Buffer.concat(chunks).toString('utf8');
}
