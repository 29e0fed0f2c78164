import { expect } from 'chai';
import { createSwrCache } from '../../../src/services/modelCatalog/cache';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('stale-while-revalidate cache', () => {
  it('shares one load between concurrent callers of a key, and serves fresh values from memory', async () => {
    let loads = 0;
    const gate = deferred<void>();
    const cache = createSwrCache<number>({
      maxEntries: 10,
      load: async () => {
        loads++;
        await gate.promise;
        return { value: 42, ttlMs: 60_000 };
      },
    });
    const answers = Promise.all(Array.from({ length: 10 }, () => cache.get('k')));
    gate.resolve();
    expect(await answers).to.deep.equal(Array(10).fill(42));
    expect(await cache.get('k')).to.equal(42);
    expect(loads).to.equal(1);
  });

  it('serves a stale value at once and replaces it in the background, passing it to the load', async () => {
    let clock = 0;
    const seen: Array<number | undefined> = [];
    let next = deferred<number>();
    const cache = createSwrCache<number>({
      maxEntries: 10,
      now: () => clock,
      load: async (_key, previous) => {
        seen.push(previous);
        return { value: await next.promise, ttlMs: 100 };
      },
    });
    const first = cache.get('k');
    next.resolve(1);
    expect(await first).to.equal(1);

    clock = 100;
    next = deferred<number>();
    expect(await cache.get('k')).to.equal(1);
    expect(await cache.get('k')).to.equal(1);
    next.resolve(2);
    await new Promise((r) => setImmediate(r));
    expect(await cache.get('k')).to.equal(2);
    expect(seen).to.deep.equal([undefined, 1]);
  });

  it('drops a load that was in flight when the key was deleted, even if it finishes last', async () => {
    const gates = [deferred<void>(), deferred<void>()];
    const values = ['old', 'new'];
    let calls = 0;
    const cache = createSwrCache<string>({
      maxEntries: 10,
      load: async () => {
        const call = calls++;
        await gates[call]!.promise;
        return { value: values[call]!, ttlMs: 60_000 };
      },
    });
    const stale = cache.get('k');
    cache.delete('k');
    const fresh = cache.get('k');
    gates[1]!.resolve();
    expect(await fresh).to.equal('new');
    gates[0]!.resolve();
    expect(await stale).to.equal('old');
    expect(await cache.get('k')).to.equal('new');
    expect(calls).to.equal(2);
  });

  it('keeps at most maxEntries keys', async () => {
    let loads = 0;
    const cache = createSwrCache<string>({
      maxEntries: 2,
      load: async (key) => {
        loads++;
        return { value: key, ttlMs: 60_000 };
      },
    });
    for (const key of ['a', 'b', 'c']) await cache.get(key);
    await cache.get('c');
    await cache.get('b');
    expect(loads).to.equal(3);
    await cache.get('a');
    expect(loads).to.equal(4);
  });
});
