/**
 * The worker side of terminals. Sessions live in the worker that opened them (it holds the
 * exec); API processes reach them over the event bus (src/terminals/protocol.ts).
 *
 * Opening: every worker hears `terminal_open`. A worker first opens the TTY (which proves
 * the workspace container runs on its engine), then claims the session by inserting its row;
 * the first insert wins and answers, the others close their TTY and stay silent. A worker
 * that cannot reach the container answers "not final", so a worker that can still wins. A
 * workspace placed on a worker host has its opens sent to that host's channel instead, which
 * only the host's workers hear (two hosts' engines may both answer for a container name).
 */
import type { ErrorKind } from '../domain/errors';
import type { EventBus } from '../events/bus';
import type { Logger } from '../logger';
import { HeldSession } from './session';
import {
  OPEN_CHANNEL,
  createReassembler,
  hostOpenChannel,
  ownerChannel,
  publishMessage,
  replyChannel,
  type OpenResult,
  type TerminalReply,
  type TerminalRequest,
} from './protocol';
import type { TerminalSessionsRepository } from '../db/terminalSessionsRepository';
import { TERMINAL_LIMITS, type OpenTty, type Tty } from './types';

export interface TerminalManagerOptions {
  bus: EventBus;
  /** The `terminal_sessions` rows: claims, exits and the sweep. */
  repository: TerminalSessionsRepository;
  /** This worker process's instance id: unique per process (several may share a host). */
  owner: string;
  /** This worker's host: it also opens the terminals of workspaces placed on it. */
  hostId?: string;
  openTty: OpenTty;
  logger: Logger;
  /** Environment for every shell, e.g. TERM. */
  env?: Record<string, string>;
  /** How long an exited session's output stays available for replay. */
  retainExitedMs?: number;
  /** How often held sessions are checked against their rows (deleted or given up by the API). */
  sweepIntervalMs?: number;
}

export interface TerminalManager {
  readonly owner: string;
  start(): Promise<void>;
  /** Ends every held shell and marks its session exited. */
  close(): Promise<void>;
  /** Sessions held in memory, live or recently exited. */
  sessionCount(): number;
}

type Req<K extends TerminalRequest['k']> = Extract<TerminalRequest, { k: K }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createTerminalManager(options: TerminalManagerOptions): TerminalManager {
  const { bus, owner, openTty } = options;
  const logger = options.logger.child({ component: 'terminals', owner });
  const repo = options.repository;
  const env = { TERM: 'xterm-256color', ...options.env };
  const retainExitedMs = options.retainExitedMs ?? 10 * 60_000;
  const sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  const sessions = new Map<string, HeldSession>();
  const openChannels = [OPEN_CHANNEL, ...(options.hostId ? [hostOpenChannel(options.hostId)] : [])];
  const exitWrites = new Set<Promise<void>>();
  const unsubscribers: Array<() => Promise<void>> = [];
  let sweepTimer: NodeJS.Timeout | null = null;
  let closing = false;

  const send = (req: TerminalRequest, reply: TerminalReply) =>
    publishMessage(bus, replyChannel(req.replyTo), reply).catch((err) => logger.warn('terminal reply not sent', { kind: req.k, err: err as Error }));
  const ok = (req: TerminalRequest, result: unknown = {}) => send(req, { k: 'reply', id: req.id, ok: true, result });
  const fail = (req: TerminalRequest, kind: ErrorKind, error: string, details: string | null = null, final = true) =>
    send(req, { k: 'reply', id: req.id, ok: false, kind, error, details, final });

  function onSessionExit(session: HeldSession) {
    if (!session.active) return;
    const write: Promise<void> = repo
      .markExited(session.id, session.exitCode)
      .catch((err) => logger.warn('terminal exit not recorded', { sessionId: session.id, err: err as Error }))
      .finally(() => exitWrites.delete(write));
    exitWrites.add(write);
    setTimeout(() => {
      if (sessions.get(session.id) === session) sessions.delete(session.id);
    }, retainExitedMs).unref();
  }

  async function closeQuietly(session: HeldSession | Tty) {
    await session.close().catch((err) => logger.warn('terminal did not close cleanly', { err: err as Error }));
  }

  async function handleOpen(req: Req<'open'>) {
    if (closing) return;
    let tty: Tty;
    try {
      tty = await openTty(req.replicaId, { cols: req.cols, rows: req.rows, env });
    } catch (err) {
      logger.info('no terminal for this workspace here', { replicaId: req.replicaId, err: err as Error });
      return fail(req, 'unavailable', 'Terminal unavailable', 'could not start a shell in the workspace container', false);
    }
    const session = new HeldSession(req.sessionId, req.replicaId, tty, { bus, logger, onExit: onSessionExit });
    // Held before the claim commits, so a ping in between sees it as live.
    sessions.set(session.id, session);
    try {
      const outcome = await repo.claim({ sessionId: req.sessionId, replicaId: req.replicaId, owner, cols: req.cols, rows: req.rows, maxLive: TERMINAL_LIMITS.sessionsPerWorkspace });
      if (outcome.kind !== 'claimed' || closing) {
        sessions.delete(session.id);
        await closeQuietly(session);
        if (outcome.kind === 'claimed') await repo.markExited(session.id, null);
        if (outcome.kind === 'full') {
          return fail(req, 'rate_limited', 'Too many terminal sessions', `a workspace has at most ${TERMINAL_LIMITS.sessionsPerWorkspace} live terminal sessions`);
        }
        if (outcome.kind === 'gone') return fail(req, 'not_found', 'Workspace not found', 'the workspace is no longer active');
        return;
      }
      session.activate();
      if (session.exited) onSessionExit(session);
      const result: OpenResult = { id: outcome.row.id, title: outcome.row.title, createdAt: outcome.row.createdAt.toISOString() };
      logger.info('terminal opened', { sessionId: session.id, replicaId: req.replicaId });
      return ok(req, result);
    } catch (err) {
      sessions.delete(session.id);
      await closeQuietly(session);
      throw err;
    }
  }

  async function handle(req: TerminalRequest) {
    if (req.k === 'ping') {
      const ids = Array.isArray(req.sessionIds) ? req.sessionIds : [];
      return ok(req, { live: ids.filter((id) => sessions.get(id)?.exited === false) });
    }
    const session = sessions.get(req.sessionId);
    if (req.k === 'close') {
      if (session) {
        sessions.delete(req.sessionId);
        await closeQuietly(session);
      }
      await repo.remove(req.sessionId);
      return ok(req);
    }
    if (!session?.active) return fail(req, 'not_found', 'Terminal session not found');
    if (req.k === 'replay') return ok(req, session.replay(Number.isInteger(req.from) ? req.from : 0));
    if (session.exited) return fail(req, 'conflict', 'Terminal session has exited', session.exitCode === null ? null : `exit code ${session.exitCode}`);
    if (req.k === 'resize') {
      await session.resize(req.cols, req.rows);
      await repo.updateSize(session.id, req.cols, req.rows);
      return ok(req);
    }
    if (req.k === 'input') {
      const decision = session.ordering.accept({ generation: req.generation, sequence: req.sequence, data: req.data });
      switch (decision.kind) {
        case 'apply':
          await session.write(decision.writes);
          return ok(req, { state: 'applied', batches: decision.writes.length });
        case 'held':
        case 'duplicate':
          return ok(req, { state: decision.kind });
        case 'staleGeneration':
          return fail(req, 'conflict', 'Stale input generation', `generation ${req.generation} is older than the session's current generation ${decision.generation}`);
        case 'tooFarAhead':
          return fail(req, 'conflict', 'Input sequence too far ahead', `sequence ${req.sequence} is not within ${decision.window} of the next expected sequence ${decision.expected}; send the missing batches first`);
        case 'heldFull':
          return fail(req, 'conflict', 'Too much input waiting for earlier batches', `at most ${decision.maxHeldChars} characters are held while a sequence is missing`);
      }
    }
  }

  function listener(channel: string) {
    const reassembler = createReassembler();
    return (raw: string) => {
      const req = reassembler.accept(raw) as TerminalRequest | null;
      if (!req || typeof req.id !== 'string' || typeof req.replyTo !== 'string' || !UUID.test(req.replyTo)) return;
      if ((req.k === 'open') !== openChannels.includes(channel)) return;
      if (req.k !== 'ping' && (typeof req.sessionId !== 'string' || !UUID.test(req.sessionId))) return;
      const work = req.k === 'open' ? handleOpen(req) : handle(req);
      void work.catch((err) => {
        logger.error('terminal request failed', { kind: req.k, err: err as Error });
        return fail(req, 'internal', 'Internal server error');
      });
    };
  }

  async function sweep() {
    const live = [...sessions.values()].filter((s) => s.active && !s.exited);
    if (live.length === 0) return;
    const rows = await repo.stillLive(live.map((s) => s.id));
    for (const session of live) {
      if (rows.has(session.id) || sessions.get(session.id) !== session) continue;
      logger.info('closing a terminal whose session is gone', { sessionId: session.id });
      sessions.delete(session.id);
      await closeQuietly(session);
    }
  }

  return {
    owner,
    async start() {
      await repo.markOwnerExited(owner);
      for (const channel of openChannels) unsubscribers.push(await bus.subscribe(channel, listener(channel)));
      unsubscribers.push(await bus.subscribe(ownerChannel(owner), listener(ownerChannel(owner))));
      sweepTimer = setInterval(() => void sweep().catch((err) => logger.warn('terminal sweep failed', { err: err as Error })), sweepIntervalMs);
      sweepTimer.unref();
    },
    async close() {
      closing = true;
      if (sweepTimer) clearInterval(sweepTimer);
      await Promise.all(unsubscribers.splice(0).map((u) => u().catch(() => undefined)));
      const held = [...sessions.values()];
      sessions.clear();
      await Promise.all(held.map(closeQuietly));
      await Promise.all([...exitWrites]);
      await repo.markOwnerExited(owner).catch((err) => logger.warn('terminal sessions not marked exited', { err: err as Error }));
    },
    sessionCount: () => sessions.size,
  };
}
