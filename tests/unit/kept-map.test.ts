import { afterEach, describe, expect, it, vi } from 'vitest';
import { keptMap } from '../../src/server/cache/kept-map';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('keptMap', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps an answer for maxAgeMs, then loads it again', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const map = keptMap<number>({ max: 10, maxAgeMs: 60_000 });
    const load = vi.fn(async () => load.mock.calls.length);
    expect(await map.get('a', load)).toBe(1);
    vi.setSystemTime(1_000_000 + 59_999);
    expect(await map.get('a', load)).toBe(1);
    expect(map.peek('a')).toBe(1);
    vi.setSystemTime(1_000_000 + 60_000);
    expect(map.peek('a')).toBeUndefined();
    expect(await map.get('a', load)).toBe(2);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('lets the least recently used entry go when full', async () => {
    const map = keptMap<string>({ max: 2, maxAgeMs: 60_000 });
    await map.get('a', async () => 'a1');
    await map.get('b', async () => 'b1');
    await map.get('a', async () => 'a2'); // a hit: a is now the most recently used
    await map.get('c', async () => 'c1');
    expect(map.peek('a')).toBe('a1');
    expect(map.peek('b')).toBeUndefined();
    expect(map.peek('c')).toBe('c1');
  });

  it('loads a key once for callers that ask while it is on its way', async () => {
    const map = keptMap<string>({ max: 10, maxAgeMs: 60_000 });
    const read = deferred<string>();
    const load = vi.fn(() => read.promise);
    const first = map.get('a', load);
    const second = map.get('a', load);
    read.resolve('x');
    expect(await Promise.all([first, second])).toEqual(['x', 'x']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('answers a read that a drop overtook, but does not keep it; dropOn wires the drop', async () => {
    let change: () => void = () => undefined;
    const map = keptMap<string>({ max: 10, maxAgeMs: 60_000, dropOn: (listener) => (change = listener) });
    await map.get('kept', async () => 'old');
    const read = deferred<string>();
    const pending = map.get('a', () => read.promise);
    change();
    expect(map.peek('kept')).toBeUndefined();
    read.resolve('read before the change');
    expect(await pending).toBe('read before the change');
    expect(map.peek('a')).toBeUndefined();
    expect(await map.get('a', async () => 'fresh')).toBe('fresh');
  });

  it('keeps a value read since a mark only if no drop came meanwhile', () => {
    const map = keptMap<number>({ max: 10, maxAgeMs: 60_000 });
    const before = map.mark();
    map.keep('a', 1, before);
    expect(map.peek('a')).toBe(1);
    const since = map.mark();
    map.drop();
    map.keep('b', 2, since);
    expect(map.peek('b')).toBeUndefined();
  });
});
