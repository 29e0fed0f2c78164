/**
 * A small publish/subscribe bus between processes: workers publish (live hook output),
 * API processes subscribe and relay to SSE clients. PostgreSQL LISTEN/NOTIFY when the
 * database is a server, in-process when the one dev process uses the embedded database.
 *
 * The PostgreSQL bus publishes and listens on one dedicated connection, so messages from
 * one publisher arrive in the order they were sent.
 */
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Logger } from '../logger';

export type BusHandler = (message: string) => void;

export interface EventBus {
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** NOTIFY payloads must stay under 8000 bytes. */
export const MAX_MESSAGE_BYTES = 7800;

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string) {
  if (!CHANNEL.test(channel)) throw new Error(`invalid bus channel name ${channel}`);
}

export function createMemoryBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, message) {
      checkChannel(channel);
      emitter.emit(channel, message);
    },
    async subscribe(channel, handler) {
      checkChannel(channel);
      emitter.on(channel, handler);
      return async () => void emitter.off(channel, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/** The longest wait between two attempts to listen again after the connection was lost. */
const RECONNECT_MAX_MS = 5000;

export function createPostgresBus(databaseUrl: string, logger: Logger): EventBus {
  const handlers = new Map<string, Set<BusHandler>>();
  let clientPromise: Promise<pg.Client> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let reconnectDelayMs = 250;
  /** The open connection, once it listens. */
  let current: pg.Client | null = null;

  /**
   * A lost connection (PostgreSQL restarted, the network cut) is dropped, never reused, and while
   * anyone listens a new one is opened with backoff, so notifications resume without waiting for
   * the next publish. A connection that could not be opened is not kept either.
   */
  function lost(client: pg.Client | null, err?: Error): void {
    if (client && clientPromise && current !== client) return;
    if (err) logger.warn('event bus connection failed', { err });
    clientPromise = null;
    current = null;
    client?.end().catch(() => undefined);
    if (closed || handlers.size === 0 || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      run(() => Promise.resolve()).then(
        () => (reconnectDelayMs = 250),
        () => {
          reconnectDelayMs = Math.min(RECONNECT_MAX_MS, reconnectDelayMs * 2);
          lost(null);
        },
      );
    }, reconnectDelayMs);
    reconnectTimer.unref();
  }

  function connect(): Promise<pg.Client> {
    clientPromise ??= (async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      client.on('notification', (n) => {
        for (const handler of handlers.get(n.channel) ?? []) handler(n.payload ?? '');
      });
      client.on('error', (err) => lost(client, err));
      client.on('end', () => lost(client));
      try {
        await client.connect();
        for (const channel of handlers.keys()) await client.query(`LISTEN ${channel}`);
      } catch (err) {
        client.end().catch(() => undefined);
        throw err;
      }
      current = client;
      return client;
    })().catch((err: unknown) => {
      clientPromise = null;
      throw err;
    });
    return clientPromise;
  }

  // Serialise every statement on the one connection: ordering is the point.
  function run<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const next = queue.then(async () => fn(await connect()));
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    publish(channel, message) {
      checkChannel(channel);
      if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES) return Promise.reject(new Error('bus message too large'));
      return run((c) => c.query('SELECT pg_notify($1, $2)', [channel, message])).then(() => undefined);
    },
    async subscribe(channel, handler) {
      checkChannel(channel);
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await run((c) => c.query(`LISTEN ${channel}`));
      }
      set.add(handler);
      return async () => {
        set!.delete(handler);
        if (set!.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          await run((c) => c.query(`UNLISTEN ${channel}`)).catch(() => undefined);
        }
      };
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      handlers.clear();
      const client = await clientPromise?.catch(() => null);
      clientPromise = null;
      current = null;
      await client?.end().catch(() => undefined);
    },
  };
}
