/**
 * The event bus (see bus.ts) over Redis pub/sub, for messages every API process must hear when
 * REDIS_URL is set. Channels are named under `HANGAR_REDIS_PREFIX`, so deployments and test runs
 * sharing a Redis do not hear each other. One connection publishes; another, in subscriber
 * mode, listens and subscribes again by itself after a reconnect. Delivery is at most once:
 * users of the bus must tolerate a lost message (the API key cache does, by its heartbeat).
 */
import { Redis } from 'ioredis';
import type { Logger } from '../logger';
import type { BusHandler, EventBus } from './bus';

export function createRedisBus(options: { url: string; prefix: string; logger: Logger }): EventBus {
  const { prefix, logger } = options;
  const publisher = new Redis(options.url, { maxRetriesPerRequest: 2, connectTimeout: 5000 });
  const subscriber = new Redis(options.url, { maxRetriesPerRequest: 2, connectTimeout: 5000 });
  const handlers = new Map<string, Set<BusHandler>>();
  let lastWarning = 0;
  const warn = (err: Error) => {
    if (Date.now() - lastWarning < 30_000) return;
    lastWarning = Date.now();
    logger.warn('event bus: Redis connection failed', { err });
  };
  publisher.on('error', warn);
  subscriber.on('error', warn);
  subscriber.on('message', (channel: string, message: string) => {
    for (const handler of handlers.get(channel.slice(prefix.length)) ?? []) handler(message);
  });

  const close = async (redis: Redis) => {
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
  };

  return {
    async publish(channel, message) {
      await publisher.publish(prefix + channel, message);
    },
    async subscribe(channel, handler) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await subscriber.subscribe(prefix + channel);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          await subscriber.unsubscribe(prefix + channel).catch(() => undefined);
        }
      };
    },
    async close() {
      handlers.clear();
      await Promise.all([close(publisher), close(subscriber)]);
    },
  };
}
