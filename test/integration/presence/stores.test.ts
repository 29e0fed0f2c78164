/**
 * One contract for both presence stores: Redis (the machine's real server, a prefix of each
 * test's own) and the in-process map. Time is passed in, so expiry is tested at exact
 * instants; a second handle on the same storage stands for a second API process (a second
 * Redis connection; the same map in one process).
 */
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { PresenceEntry } from '../../../src/domain/presence';
import { silentLogger } from '../../../src/logger';
import { createMemoryPresenceStore, createRedisPresenceStore, type PresenceInput, type PresenceStore } from '../../../src/presence';
import { harness } from '../../support/harness';
import { until } from '../../support/wait';

const TTL = 30_000;
const T0 = 1_700_000_000_000;

interface Backend {
  name: string;
  /** A fresh, empty storage, and a way to open another handle on it. */
  open(options?: { ttlMs?: number; lingerMs?: number }): { store: PresenceStore; another(): PresenceStore; keys(): Promise<string[]> };
}

const redisUrl = () => harness().config.redisUrl ?? 'redis://127.0.0.1:6379';
const opened: PresenceStore[] = [];
const prefixes: string[] = [];

const backends: Backend[] = [
  {
    name: 'Redis',
    open(options = {}) {
      const prefix = `hangar-contract-${randomBytes(4).toString('hex')}:`;
      prefixes.push(prefix);
      const make = () => {
        const store = createRedisPresenceStore({ url: redisUrl(), prefix, ttlMs: options.ttlMs ?? TTL, lingerMs: options.lingerMs, logger: silentLogger });
        opened.push(store);
        return store;
      };
      return { store: make(), another: make, keys: () => keysUnder(prefix) };
    },
  },
  {
    name: 'in-process',
    open(options = {}) {
      const store = createMemoryPresenceStore({ ttlMs: options.ttlMs ?? TTL });
      return { store, another: () => store, keys: async () => [] };
    },
  },
];

async function keysUnder(prefix: string): Promise<string[]> {
  const redis = new Redis(redisUrl());
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    return keys;
  } finally {
    redis.disconnect();
  }
}

function member(organizationId: string, overrides: Partial<PresenceInput> = {}): PresenceInput {
  return {
    organizationId,
    userId: randomUUID(),
    displayName: 'Member',
    avatarUrl: null,
    location: { type: 'environment', id: randomUUID() },
    typing: false,
    ...overrides,
  };
}

const ids = (entries: PresenceEntry[]) => entries.map((e) => e.userId).sort();

for (const backend of backends) {
  describe(`presence store contract: ${backend.name}`, function () {
    after(async () => {
      for (const store of opened.splice(0)) await store.close();
      const redis = new Redis(redisUrl());
      for (const prefix of prefixes.splice(0)) {
        const keys = await keysUnder(prefix);
        if (keys.length > 0) await redis.del(...keys);
      }
      redis.disconnect();
    });

    it('a first heartbeat finds nothing before it; the next one finds it, and readers see the latest', async () => {
      const { store } = backend.open();
      const org = randomUUID();
      const ada = member(org);
      const first = await store.heartbeat(ada, T0);
      expect(first.previous).to.equal(null);
      expect(first.entry).to.deep.equal({ ...ada, lastSeenAt: T0, expiresAt: T0 + TTL });
      const moved = { ...ada, location: { type: 'workspace' as const, id: randomUUID() }, typing: true };
      const second = await store.heartbeat(moved, T0 + 5_000);
      expect(second.previous).to.deep.equal(first.entry);
      expect(await store.list(org, T0 + 5_000)).to.deep.equal([{ ...moved, lastSeenAt: T0 + 5_000, expiresAt: T0 + 5_000 + TTL }]);
    });

    it('lists only its own organization', async () => {
      const { store } = backend.open();
      const [orgA, orgB] = [randomUUID(), randomUUID()];
      const a1 = member(orgA);
      const a2 = member(orgA);
      const b1 = member(orgB);
      for (const m of [a1, a2, b1]) await store.heartbeat(m, T0);
      expect(ids(await store.list(orgA, T0 + 1))).to.deep.equal([a1.userId, a2.userId].sort());
      expect(ids(await store.list(orgB, T0 + 1))).to.deep.equal([b1.userId]);
      expect(await store.list(randomUUID(), T0 + 1)).to.deep.equal([]);
    });

    it('a member without a heartbeat is gone at the deadline, with no write at all', async () => {
      const { store } = backend.open();
      const org = randomUUID();
      const quiet = member(org);
      const chatty = member(org);
      await store.heartbeat(quiet, T0);
      await store.heartbeat(chatty, T0);
      await store.heartbeat(chatty, T0 + 20_000);
      expect(ids(await store.list(org, T0 + TTL - 1))).to.deep.equal([quiet.userId, chatty.userId].sort());
      expect(ids(await store.list(org, T0 + TTL))).to.deep.equal([chatty.userId]);
      expect(await store.list(org, T0 + 20_000 + TTL)).to.deep.equal([]);
    });

    it('hands each expired member to one claimer only, and leaves the live ones', async () => {
      const { store, another } = backend.open();
      const [orgA, orgB] = [randomUUID(), randomUUID()];
      const expired = [member(orgA), member(orgA), member(orgB)];
      const live = member(orgA);
      for (const m of expired) await store.heartbeat(m, T0);
      await store.heartbeat(live, T0 + 10_000);
      expect(await store.claimExpired(T0 + TTL - 1, 10)).to.deep.equal([]);

      // Two processes sweeping at the same instant.
      const second = another();
      const [one, two] = await Promise.all([store.claimExpired(T0 + TTL, 10), second.claimExpired(T0 + TTL, 10)]);
      expect(ids([...one, ...two])).to.deep.equal(ids(expired.map((m) => ({ ...m, lastSeenAt: T0, expiresAt: T0 + TTL }))));
      const claimed = [...one, ...two].find((e) => e.userId === expired[2]!.userId)!;
      expect(claimed).to.deep.equal({ ...expired[2]!, lastSeenAt: T0, expiresAt: T0 + TTL });
      expect(await store.claimExpired(T0 + TTL, 10)).to.deep.equal([]);
      expect(ids(await store.list(orgA, T0 + TTL))).to.deep.equal([live.userId]);
    });

    it('claims at most `limit` at a time', async () => {
      const { store } = backend.open();
      const org = randomUUID();
      for (let i = 0; i < 5; i++) await store.heartbeat(member(org), T0);
      expect(await store.claimExpired(T0 + TTL, 2)).to.have.length(2);
      expect(await store.claimExpired(T0 + TTL, 2)).to.have.length(2);
      expect(await store.claimExpired(T0 + TTL, 2)).to.have.length(1);
      expect(await store.claimExpired(T0 + TTL, 2)).to.have.length(0);
    });

    it('a heartbeat after the deadline but before a sweep gets the expired entry, and no sweep claims it', async () => {
      const { store, another } = backend.open();
      const org = randomUUID();
      const late = member(org);
      const first = await store.heartbeat(late, T0);
      const again = await another().heartbeat(late, T0 + TTL + 500);
      expect(again.previous).to.deep.equal(first.entry);
      expect(await store.claimExpired(T0 + TTL + 500, 10)).to.deep.equal([]);
      expect(ids(await store.list(org, T0 + TTL + 500))).to.deep.equal([late.userId]);
      // Its new deadline is claimed in turn.
      expect(ids(await store.claimExpired(T0 + 2 * TTL + 500, 10))).to.deep.equal([late.userId]);
    });

    it('leaving removes the member at once, answers what it removed, and leaves nothing to claim', async () => {
      const { store } = backend.open();
      const org = randomUUID();
      const leaving = member(org);
      const staying = member(org);
      const { entry } = await store.heartbeat(leaving, T0);
      await store.heartbeat(staying, T0);
      expect(await store.leave(org, leaving.userId)).to.deep.equal(entry);
      expect(await store.leave(org, leaving.userId)).to.equal(null);
      expect(ids(await store.list(org, T0 + 1))).to.deep.equal([staying.userId]);
      expect(ids(await store.claimExpired(T0 + TTL, 10))).to.deep.equal([staying.userId]);
      // Gone: a new heartbeat is a join.
      expect((await store.heartbeat(leaving, T0 + TTL)).previous).to.equal(null);
    });

    if (backend.name === 'Redis') {
      it('keys expire in Redis itself when nobody writes or sweeps', async function () {
        const { store, keys } = backend.open({ ttlMs: 200, lingerMs: 200 });
        await store.heartbeat(member(randomUUID()), Date.now());
        expect(await keys()).to.have.length.greaterThan(0);
        await until('every presence key to expire', async () => (await keys()).length === 0, 5_000, 50);
      });

      it('keeps prefixes apart', async () => {
        const a = backend.open();
        const b = backend.open();
        const org = randomUUID();
        await a.store.heartbeat(member(org), T0);
        expect(await b.store.list(org, T0 + 1)).to.deep.equal([]);
        expect(await b.store.claimExpired(T0 + TTL, 10)).to.deep.equal([]);
        expect(await a.store.claimExpired(T0 + TTL, 10)).to.have.length(1);
      });
    }
  });
}
