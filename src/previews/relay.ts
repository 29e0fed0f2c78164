/**
 * A worker host's preview relay (docs/decisions/previews.md, "Previews on other hosts"). API processes
 * cannot reach a container's address on another host's Docker engine, so they hand preview
 * traffic, WebSockets included, to the relay of the workspace's host, which forwards it to the
 * container on its own engine.
 *
 * The relay trusts nothing in a request but a grant the API signed after authorising the
 * preview: which workspace, which port, for a minute. It finds the container itself: the
 * workspace must be recorded on this host, and its container on this engine must carry the
 * workspace labels; its address comes from the engine, never from the request or the database.
 * It connects through the engine's exec (execConnection.ts), not by the container's address,
 * so it works from a worker that cannot route to the workspaces' networks (a container of its
 * own, as in docker-compose.yml).
 * Everything else is refused with the Error body (403 without a valid grant, 404 for a
 * workspace that is not here).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { Counter } from 'prom-client';
import type { ReplicasRepository } from '../db/replicasRepository';
import { isForwardableAddress } from '../domain/previews';
import { workspaceKey } from '../domain/replicas';
import type { Logger } from '../logger';
import { registry } from '../metrics';
import { LABEL_ROLE } from '../sandbox/docker';
import { LABEL_REPLICA, WORKSPACE_ROLE, workspaceName } from '../sandbox/workspace/container';
import { ExecAgent } from './execConnection';
import { createForwarder, type ForwardTarget, unreachable } from './forwarder';
import { answerPage, type Refusal, writeRefusal } from './pages';
import { GRANT_HEADER, type RelayGrant, type RelayGrants } from './relayGrants';

/** `outcome`: forwarded, refused (no valid grant, or no such workspace here) or failed (nothing answered). */
export const relayRequests = new Counter({
  name: 'hangar_preview_relay_requests_total',
  help: 'Preview requests that reached this worker host\'s relay, by kind (http, websocket) and outcome (forwarded, refused, failed)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [registry],
});

export interface PreviewRelayOptions {
  port: number;
  host: string;
  /** This worker's host: only workspaces recorded on it are served. */
  hostId: string;
  grants: RelayGrants;
  replicas: Pick<ReplicasRepository, 'find'>;
  docker: Docker;
  /** Puts the connection helper into a workspace container made from an image older than it. */
  installHelper?: (workspaceKey: string) => Promise<void>;
  logger: Logger;
  connectTimeoutMs?: number;
}

export interface PreviewRelay {
  /** The port it listens on. */
  port: number;
  close(): Promise<void>;
}

type Located = { kind: 'forward'; target: ForwardTarget } | { kind: 'refuse'; refusal: Refusal };

const refuse = (status: number, error: string, details: string | null, extra: Partial<Refusal> = {}): Located => ({ kind: 'refuse', refusal: { status, error, details, ...extra } });

const dockerStatus = (err: unknown) => (err as { statusCode?: number }).statusCode;

const RELAY_CONNECT_TIMEOUT_MS = 15_000;

export async function startPreviewRelay(options: PreviewRelayOptions): Promise<PreviewRelay> {
  const { hostId, grants, replicas, docker, logger } = options;
  // An exec is a few engine round trips before the server's own accept: longer than a TCP connect.
  const forwarder = createForwarder({ logger, connectTimeoutMs: options.connectTimeoutMs ?? RELAY_CONNECT_TIMEOUT_MS });

  /** The container a grant names, if it is a workspace of this host running on this engine. */
  async function containerOf(grant: RelayGrant): Promise<Located> {
    const row = await replicas.find(grant.replicaId);
    if (!row || row.deleted_at || row.host_id !== hostId) return refuse(404, 'Preview not found', 'no such workspace on this worker host');
    const key = workspaceKey(row);
    let info: Docker.ContainerInspectInfo;
    try {
      info = await docker.getContainer(workspaceName(key)).inspect();
    } catch (err) {
      if (dockerStatus(err) === 404) return refuse(404, 'Preview not found', 'the workspace has no container on this worker host');
      throw err;
    }
    const labels = info.Config?.Labels ?? {};
    if (labels[LABEL_ROLE] !== WORKSPACE_ROLE || labels[LABEL_REPLICA] !== key) return refuse(404, 'Preview not found', 'the workspace has no container on this worker host');
    if (!info.State?.Running) return refuse(503, 'Workspace is starting', 'the workspace is not running yet; try again in a few seconds', { retryAfter: 5, waking: true });
    const address = Object.values(info.NetworkSettings?.Networks ?? {}).find((n) => n?.IPAddress)?.IPAddress;
    if (!isForwardableAddress(address)) return refuse(503, 'Workspace is starting', 'the workspace is not reachable yet; try again in a few seconds', { retryAfter: 5, waking: true });
    // The address names the target; the connection itself goes through the engine.
    const install = options.installHelper && (() => options.installHelper!(key));
    return { kind: 'forward', target: { protocol: 'http:', host: address, port: grant.port, agent: new ExecAgent(docker.getContainer(info.Id), grant.port, install) } };
  }

  /** The grant leaves the request here: the workspace's server never sees it. */
  async function locate(req: IncomingMessage): Promise<Located> {
    const header = req.headers[GRANT_HEADER];
    delete req.headers[GRANT_HEADER];
    const grant = grants.verify(Array.isArray(header) ? undefined : header);
    if (!grant) return refuse(403, 'Forbidden', 'this worker host\'s preview relay serves only requests signed by Hangar\'s API, for a minute');
    return containerOf(grant);
  }

  const upgraded = new Set<Duplex>();
  const server: Server = createServer();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    locate(req).then(
      (located) => {
        if (located.kind === 'refuse') {
          relayRequests.inc({ kind: 'http', outcome: 'refused' });
          return answerPage(req, res, located.refusal);
        }
        relayRequests.inc({ kind: 'http', outcome: 'forwarded' });
        forwarder.web(req, res, located.target, (err) => {
          relayRequests.inc({ kind: 'http', outcome: 'failed' });
          if (res.headersSent) return void res.destroy();
          answerPage(req, res, unreachable(located.target.port, err));
        });
      },
      (err: unknown) => {
        logger.error('preview relay request failed', { err: err as Error });
        if (!res.headersSent) answerPage(req, res, { status: 500, error: 'Internal server error', details: null });
        else res.destroy();
      },
    );
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    locate(req).then(
      (located) => {
        if (located.kind === 'refuse') {
          relayRequests.inc({ kind: 'websocket', outcome: 'refused' });
          return writeRefusal(socket, located.refusal);
        }
        relayRequests.inc({ kind: 'websocket', outcome: 'forwarded' });
        forwarder.ws(req, socket, head, located.target, (err) => {
          relayRequests.inc({ kind: 'websocket', outcome: 'failed' });
          if (socket.writable && !(socket as { bytesWritten?: number }).bytesWritten) writeRefusal(socket, unreachable(located.target.port, err));
          else socket.destroy();
        });
      },
      (err: unknown) => {
        logger.error('preview relay upgrade failed', { err: err as Error });
        writeRefusal(socket, { status: 500, error: 'Internal server error', details: null });
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  logger.info('preview relay listening', { host: options.host, port, hostId });

  return {
    port,
    async close() {
      forwarder.close();
      for (const socket of upgraded) socket.destroy();
      upgraded.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
