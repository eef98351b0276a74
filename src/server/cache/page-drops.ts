/**
 * "Cached pages were dropped": said by the catalog cache (src/server/catalog/catalog-cache.ts) whenever
 * Astro's route cache drops pages on this instance, heard by the finished-page store in front of Astro
 * (runtime/finished-pages.ts). The two live in different module graphs (the Astro bundle and the
 * server that loads it), so the listeners are kept on a process-wide symbol rather than in a module.
 */
const key = Symbol.for('shop.page-drops');

type Listener = () => void;

function listeners(): Set<Listener> {
  const holder = globalThis as typeof globalThis & { [key]?: Set<Listener> };
  holder[key] ??= new Set();
  return holder[key];
}

export function onPagesDropped(listener: Listener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

export function pagesDropped(): void {
  for (const listener of listeners()) listener();
}
