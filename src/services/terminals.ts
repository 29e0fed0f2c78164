/**
 * The rules behind the terminal routes: who may reach a workspace's terminals, the session
 * limit, and the bookkeeping of sessions whose worker has gone away.
 */
import { randomUUID } from 'node:crypto';
import type { Repositories } from '../db';
import type { ReplicaAccess } from '../db/terminalSessionsRepository';
import { conflict, isDomainError, notFound, rateLimited, unavailable } from '../domain/errors';
import type { Actor } from '../domain/actor';
import type { Following, TerminalClient } from '../terminals/client';
import { TERMINAL_LIMITS, sessionView, type TerminalSessionRow, type TerminalSessionView } from '../terminals/types';

export function createTerminalService(deps: { client: TerminalClient; repos: Pick<Repositories, 'terminalSessions'> }) {
  const { client } = deps;
  const repo = deps.repos.terminalSessions;

  /** Another organization's workspace, or another user's personal one, does not exist. */
  async function workspace(actor: Actor, workspaceId: string): Promise<ReplicaAccess> {
    const replica = await repo.findReplica(workspaceId);
    if (!replica || replica.organizationId !== actor.organizationId || (replica.userId !== null && replica.userId !== actor.userId)) {
      throw notFound('Workspace');
    }
    if (replica.status !== 'active') throw notFound('Workspace', `the workspace is ${replica.status}; terminals need an active workspace`);
    return replica;
  }

  async function session(actor: Actor, workspaceId: string, sessionId: string): Promise<TerminalSessionRow> {
    await workspace(actor, workspaceId);
    const row = await repo.find(workspaceId, sessionId);
    if (!row) throw notFound('Terminal session');
    return row;
  }

  const live = (row: TerminalSessionRow) => {
    if (row.exited) throw conflict('Terminal session has exited', row.exitCode === null ? null : `exit code ${row.exitCode}`);
    return row;
  };

  /**
   * Asks the owners of rows that claim to be live whether they still hold them; sessions of
   * a worker that does not answer (stopped or crashed) are marked exited.
   */
  async function reconcile(rows: TerminalSessionRow[]): Promise<boolean> {
    const byOwner = new Map<string, string[]>();
    for (const row of rows) if (!row.exited) byOwner.set(row.owner, [...(byOwner.get(row.owner) ?? []), row.id]);
    const gone: string[] = [];
    await Promise.all(
      [...byOwner].map(async ([owner, ids]) => {
        const held = await client.ping(owner, ids);
        for (const id of ids) if (!held?.includes(id)) gone.push(id);
      }),
    );
    await repo.markManyExited(gone);
    return gone.length > 0;
  }

  return {
    async list(actor: Actor, workspaceId: string): Promise<TerminalSessionView[]> {
      await workspace(actor, workspaceId);
      let rows = await repo.list(workspaceId);
      if (await reconcile(rows)) rows = await repo.list(workspaceId);
      return rows.map(sessionView);
    },

    async create(actor: Actor, workspaceId: string, size: { cols: number; rows: number }): Promise<TerminalSessionView> {
      const replica = await workspace(actor, workspaceId);
      const max = TERMINAL_LIMITS.sessionsPerWorkspace;
      let liveCount = await repo.countLive(workspaceId);
      if (liveCount >= max && (await reconcile(await repo.list(workspaceId)))) liveCount = await repo.countLive(workspaceId);
      if (liveCount >= max) {
        throw rateLimited('Too many terminal sessions', `a workspace has at most ${max} live terminal sessions`);
      }
      // The worker that claims the session re-checks the limit atomically.
      // Opened by a worker of the workspace's host, the one engine that has its container.
      const opened = await client.open({ replicaId: workspaceId, sessionId: randomUUID(), ...size }, replica.hostId).catch((err: unknown) => {
        if (replica.hostId && isDomainError(err, 'unavailable')) {
          throw unavailable('Terminal unavailable', `no worker of the workspace's host "${replica.hostId}" answered; the host may be down`);
        }
        throw err;
      });
      const row = await repo.find(workspaceId, opened.id);
      if (!row) throw notFound('Terminal session');
      return sessionView(row);
    },

    async input(actor: Actor, workspaceId: string, sessionId: string, batch: { data: string; generation: number; sequence: number }): Promise<void> {
      const row = live(await session(actor, workspaceId, sessionId));
      await client.input(row.owner, row.id, batch);
    },

    async resize(actor: Actor, workspaceId: string, sessionId: string, size: { cols: number; rows: number }): Promise<void> {
      const row = live(await session(actor, workspaceId, sessionId));
      await client.resize(row.owner, row.id, size.cols, size.rows);
    },

    /** Stops the shell and deletes the session; a worker that is gone cannot stop it, so its row just goes. */
    async remove(actor: Actor, workspaceId: string, sessionId: string): Promise<void> {
      const row = await session(actor, workspaceId, sessionId);
      try {
        await client.close(row.owner, row.id);
      } catch (err) {
        if (!isDomainError(err, 'unavailable')) throw err;
      }
      await repo.remove(row.id);
    },

    /** Replay from `from` (an output offset), then live output; an exited session with no owner left replays nothing. */
    async follow(actor: Actor, workspaceId: string, sessionId: string, from: number): Promise<Following> {
      const row = await session(actor, workspaceId, sessionId);
      try {
        return await client.follow(row.owner, row.id, from);
      } catch (err) {
        if (!row.exited || !(isDomainError(err, 'unavailable') || isDomainError(err, 'not_found'))) throw err;
        const replay = { data: '', start: 0, end: 0, exited: true, exitCode: row.exitCode };
        return { replay, start: (sink) => sink.exit(row.exitCode), stop: async () => {} };
      }
    },
  };
}

export type TerminalService = ReturnType<typeof createTerminalService>;
