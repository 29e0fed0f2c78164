/**
 * Stale-while-revalidate cache: a fresh value is served from memory; a stale one is served
 * too while one background load replaces it; a miss waits for the load. Concurrent callers
 * of one key share one load. `load` receives the previous value so it can fall back to it.
 * Bounded: past `maxEntries`, the longest-stored key goes first.
 */
export interface Loaded<V> {
  value: V;
  /** How long the value stays fresh. */
  ttlMs: number;
}

interface Slot<V> {
  value: V;
  freshUntil: number;
}

export interface SwrCache<V> {
  get(key: string): Promise<V>;
  delete(key: string): void;
}

export function createSwrCache<V>(options: {
  load: (key: string, previous: V | undefined) => Promise<Loaded<V>>;
  maxEntries: number;
  now?: () => number;
  onBackgroundError?: (key: string, err: unknown) => void;
}): SwrCache<V> {
  const now = options.now ?? Date.now;
  const slots = new Map<string, Slot<V>>();
  const inflight = new Map<string, Promise<V>>();

  function store(key: string, slot: Slot<V>) {
    slots.delete(key);
    slots.set(key, slot);
    if (slots.size > options.maxEntries) slots.delete(slots.keys().next().value!);
  }

  function refresh(key: string, previous: V | undefined): Promise<V> {
    const running = inflight.get(key);
    if (running) return running;
    const promise = options.load(key, previous).then(
      (loaded) => {
        // A delete() while loading wins: this result may predate what caused it.
        if (inflight.get(key) === promise) store(key, { value: loaded.value, freshUntil: now() + loaded.ttlMs });
        return loaded.value;
      },
    );
    inflight.set(key, promise);
    const clear = () => {
      if (inflight.get(key) === promise) inflight.delete(key);
    };
    promise.then(clear, clear);
    return promise;
  }

  return {
    get(key) {
      const slot = slots.get(key);
      if (!slot) return refresh(key, undefined);
      if (now() >= slot.freshUntil) {
        refresh(key, slot.value).catch((err: unknown) => options.onBackgroundError?.(key, err));
      }
      return Promise.resolve(slot.value);
    },
    delete(key) {
      slots.delete(key);
      inflight.delete(key);
    },
  };
}
