/**
 * Preview URLs: the API's use cases (create, list, delete, signed links) and what the proxy
 * asks before it forwards a request (which preview a token names, whether the caller may open
 * it, waking its workspace). Changes go out as `preview.changed` with the full list.
 */
import { CANONICAL_UUID } from '../domain/inputHygiene';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from '../logger';
import type { SignedLinks } from '../crypto/signedLinks';
import type { RelayGrants } from '../previews/relayGrants';
import type { Repositories } from '../db';
import type { PreviewRow, PreviewTarget } from '../db/previewsRepository';
import type { ReplicaRow } from '../db/replicasRepository';
import type { Actor } from '../domain/actor';
import { invalid, notFound } from '../domain/errors';
import { LINK_DEFAULT_SECONDS, LINK_PARAM, LINK_PURPOSE, type PreviewOrigins, previewUrl, SESSION_PURPOSE } from '../domain/previews';
import type { ReplicaEventEmitter } from '../events/replicaEvents';
import type { WorkflowControl } from '../temporal/workflowControl';
import { accessReplica, isAsleep } from './replicas/access';

export interface PreviewView {
  port: number;
  url: string;
  authenticated: boolean;
  created_at: string;
}

export interface PreviewsDeps {
  repos: Pick<Repositories, 'previews' | 'replicas'>;
  events: ReplicaEventEmitter;
  temporal: Pick<WorkflowControl, 'requestLifecycle'>;
  links: SignedLinks;
  /** Checks a member's API key (the identity service's bearer check). */
  authenticate(authorization: string): Promise<Actor>;
  /** Which form preview URLs take, and where (src/domain/previews.ts). */
  origins: PreviewOrigins;
  /** `HANGAR_PUBLIC_URL`; else the URL a request came in on. */
  publicBaseUrl: string | undefined;
  /**
   * Without a public URL, what a call from inside a workspace gets instead of the origin it
   * used (the Docker host's name, which means nothing to a browser): `http://localhost:{PORT}`.
   */
  localBaseUrl: string;
  /**
   * How often traffic through a preview tells an active workspace's workflow that it is in use
   * (resetting its idle timer): a fraction of the idle timeout, so a workspace someone is looking
   * at never falls asleep under them, and at most one signal per workspace in that period.
   */
  keepAwakeEveryMs: number;
  /** Signs what a worker host's preview relay forwards (src/previews/relayGrants.ts). */
  relayGrants: RelayGrants;
  /** `HANGAR_PREVIEW_DIAL`: `relay` never dials a container from the API process. */
  dial: 'auto' | 'relay';
  logger: Logger;
}

/**
 * How the API reaches a preview's server: the container's own address (one Docker engine beside
 * the API), or the relay of the workspace's host with a fresh grant; `none` when this API may
 * not dial containers and the host has no relay.
 */
export type PreviewHop = { kind: 'direct'; address: string } | { kind: 'relay'; url: string; grant: string } | { kind: 'none' };

export function createPreviewsService(deps: PreviewsDeps) {
  const { repos, events, links } = deps;
  const previews = repos.previews;
  /** When each workspace's idle timer was last restarted by preview traffic (this process). */
  const lastKeptAwake = new Map<string, number>();

  const urlOf = (row: Pick<PreviewRow, 'port' | 'token'>, origin: string) => previewUrl({ baseUrl: deps.publicBaseUrl ?? origin, origins: deps.origins, port: row.port, token: row.token });
  /** The base URL a caller's answers use: a workspace's own calls come in on the Docker host's name. */
  const originOf = (actor: Actor, requestOrigin: string) => (actor.keyId.startsWith('engine:') ? deps.localBaseUrl : requestOrigin);
  const view = (row: PreviewRow, origin: string): PreviewView => ({
    port: row.port,
    url: urlOf(row, origin),
    authenticated: row.authenticated,
    created_at: new Date(row.created_at).toISOString(),
  });

  /**
   * The workspace a caller may manage previews of: an API key's visible workspace, or, for a
   * workspace's engine secret, that workspace alone (another one is 404, like another org's).
   */
  async function workspace(actor: Actor, workspaceId: string): Promise<ReplicaRow> {
    if (actor.keyId.startsWith('engine:') && actor.keyId !== `engine:${workspaceId}`) throw notFound('Replica');
    return accessReplica(repos.replicas, actor, workspaceId);
  }

  async function announce(replicaId: string, origin: string): Promise<void> {
    const rows = await previews.list(replicaId);
    await events.emit(replicaId, 'preview.changed', { previews: rows.map((r) => view(r, origin)) });
  }

  async function preview(replicaId: string, port: number): Promise<PreviewRow> {
    const row = await previews.find(replicaId, port);
    if (!row) throw notFound('Preview', `no preview of port ${port} in this workspace`);
    return row;
  }

  async function remove(replicaId: string, port: number, origin: string) {
    if (!(await previews.delete(replicaId, port))) throw notFound('Preview', `no preview of port ${port} in this workspace`);
    await announce(replicaId, origin);
    return { success: true, port };
  }

  /** A link's or session's claims (`l` the link id, `p` the preview id), when they name this preview and the link is neither revoked nor expired. */
  async function liveLink(target: PreviewTarget, claims: (Record<string, unknown> & { exp: number }) | null): Promise<{ expiresAt: Date } | null> {
    if (!claims || typeof claims.l !== 'string' || claims.p !== target.id || !CANONICAL_UUID.test(claims.l)) return null;
    const link = await previews.findLink(claims.l);
    if (!link || link.preview_id !== target.id || link.revoked_at || new Date(link.expires_at).getTime() <= Date.now()) return null;
    return { expiresAt: new Date(link.expires_at) };
  }

  return {
    async list(actor: Actor, workspaceId: string, requestOrigin: string): Promise<PreviewView[]> {
      const row = await workspace(actor, workspaceId);
      const origin = originOf(actor, requestOrigin);
      return (await previews.list(row.id)).map((r) => view(r, origin));
    },

    /** A new preview, or the port's existing one (its URL kept) with `authenticated` as asked. */
    async create(actor: Actor, workspaceId: string, input: { port: number; authenticated?: boolean }, requestOrigin: string): Promise<{ preview: PreviewView; created: boolean }> {
      const replica = await workspace(actor, workspaceId);
      const origin = originOf(actor, requestOrigin);
      const { row, created } = await previews.upsert({
        id: randomUUID(),
        organization_id: replica.organization_id,
        replica_id: replica.id,
        port: input.port,
        authenticated: input.authenticated ?? false,
        token: randomBytes(16).toString('hex'),
      });
      await announce(replica.id, origin);
      return { preview: view(row, origin), created };
    },

    async remove(actor: Actor, workspaceId: string, port: number, requestOrigin: string) {
      const replica = await workspace(actor, workspaceId);
      return remove(replica.id, port, originOf(actor, requestOrigin));
    },

    /** `DELETE /v1/previews/{port}`: the calling workspace's own preview (engine secret only). */
    async removeOwn(actor: Actor, port: number, requestOrigin: string) {
      if (!actor.keyId.startsWith('engine:')) {
        throw invalid('Missing workspace', 'this operation is for code inside a workspace: send X-Workspace-Id with the engine secret');
      }
      return remove(actor.keyId.slice('engine:'.length), port, originOf(actor, requestOrigin));
    },

    /** A signed link that opens an authenticated preview in a browser (sets its cookie), until it expires or is revoked. */
    async createLink(actor: Actor, workspaceId: string, port: number, expiresInSeconds: number | undefined, requestOrigin: string) {
      const replica = await workspace(actor, workspaceId);
      const origin = originOf(actor, requestOrigin);
      const row = await preview(replica.id, port);
      const expiresAt = new Date(Date.now() + (expiresInSeconds ?? LINK_DEFAULT_SECONDS) * 1000);
      const link = await previews.insertLink({ id: randomUUID(), preview_id: row.id, expires_at: expiresAt });
      const token = links.sign(LINK_PURPOSE, { l: link.id, p: row.id }, expiresAt);
      const url = new URL(urlOf(row, origin));
      url.searchParams.set(LINK_PARAM, token);
      return { link: { id: link.id, url: url.toString(), expires_at: expiresAt.toISOString() } };
    },

    async revokeLink(actor: Actor, workspaceId: string, port: number, linkId: string) {
      const replica = await workspace(actor, workspaceId);
      const row = await preview(replica.id, port);
      if (!(await previews.revokeLink(row.id, linkId))) throw notFound('Preview link');
      return { success: true };
    },

    // What the proxy asks.

    /** The preview a token names, with its workspace; null when there is none. */
    resolve: (token: string): Promise<PreviewTarget | null> => previews.findTarget(token),

    /** Where a preview answers now, for a request that came in on `requestOrigin` (an old path-form link on the API's origin). */
    currentUrl: (target: PreviewTarget, requestOrigin: string): string => urlOf(target, requestOrigin),

    /**
     * Whether an API key may open the preview: a key of the workspace's organization that may
     * see the workspace (a personal workspace: its owner's personal key, or an org key).
     */
    async keyOpens(target: PreviewTarget, key: string): Promise<boolean> {
      let actor: Actor;
      try {
        actor = await deps.authenticate(`Bearer ${key}`);
      } catch {
        return false;
      }
      if (actor.organizationId !== target.organization_id) return false;
      return actor.keyKind === 'org' || target.replica.user_id === null || target.replica.user_id === actor.userId;
    },

    /** A link token → a session for the cookie, bound to the same link (so revoking it ends both). */
    async openLink(target: PreviewTarget, token: string): Promise<{ session: string; expiresAt: Date } | null> {
      const claims = links.verify(LINK_PURPOSE, token);
      const live = await liveLink(target, claims);
      if (!live || !claims) return null;
      return { session: links.sign(SESSION_PURPOSE, { l: String(claims.l), p: target.id }, live.expiresAt), expiresAt: live.expiresAt };
    },

    async sessionOpens(target: PreviewTarget, session: string): Promise<boolean> {
      return (await liveLink(target, links.verify(SESSION_PURPOSE, session))) !== null;
    },

    /**
     * Traffic through a preview counts as use: an active workspace's idle timer restarts (a
     * `wake` lifecycle request to an active workspace does just that), at most once per
     * `keepAwakeEveryMs` per workspace and API process. Never fails the request it rides on.
     */
    keepAwake(target: PreviewTarget): void {
      const now = Date.now();
      const last = lastKeptAwake.get(target.replica_id);
      if (last !== undefined && now - last < deps.keepAwakeEveryMs) return;
      lastKeptAwake.set(target.replica_id, now);
      if (lastKeptAwake.size > 10_000) for (const [id, at] of lastKeptAwake) if (now - at >= deps.keepAwakeEveryMs) lastKeptAwake.delete(id);
      deps.temporal.requestLifecycle(target.replica_id, 'wake').catch((err: unknown) => {
        lastKeptAwake.delete(target.replica_id);
        deps.logger.warn('could not keep a previewed workspace awake', { replicaId: target.replica_id, err: err as Error });
      });
    },

    /** The hop to a preview the caller may open, in a workspace that runs (the proxy checked both). */
    hop(target: PreviewTarget): PreviewHop {
      const { relay_url: relayUrl, container_address: address } = target.replica;
      if (relayUrl) return { kind: 'relay', url: relayUrl, grant: deps.relayGrants.issue({ replicaId: target.replica_id, port: target.port }) };
      if (deps.dial === 'relay' || !address) return { kind: 'none' };
      return { kind: 'direct', address };
    },

    /** Asks a sleeping or archived workspace to wake; true when it was asleep. */
    async wake(target: PreviewTarget): Promise<boolean> {
      if (!isAsleep(target.replica)) return false;
      await deps.temporal.requestLifecycle(target.replica_id, 'wake');
      return true;
    },

    pruneLinks: () => previews.deleteExpiredLinks(new Date(Date.now() - 24 * 60 * 60 * 1000)),
  };
}

export type PreviewsService = ReturnType<typeof createPreviewsService>;
