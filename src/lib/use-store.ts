import type { ReadableAtom } from 'nanostores';
import { useCallback, useRef, useSyncExternalStore } from 'react';

/**
 * The value of a nanostore, re-rendering when it changes: @nanostores/react's `useStore` without its
 * `keys` and `ssr` options, which no island uses. Importing the package's version brings nanostores'
 * `listenKeys` and path helpers onto every catalog page (about 0.3 KB gzip of its 75 KB script budget,
 * docs/decisions/146). Same snapshot logic: read during render, re-checked when subscribing, so a
 * change between the two is not missed.
 */
export function useStore<T>(store: ReadableAtom<T>): T {
  const snapshot = useRef<T>(undefined as T);
  snapshot.current = store.get();
  const subscribe = useCallback(
    (onChange: () => void) => {
      const emit = (value: T) => {
        if (snapshot.current === value) return;
        snapshot.current = value;
        onChange();
      };
      emit(store.value as T);
      return store.listen(emit);
    },
    [store],
  );
  const get = () => snapshot.current;
  return useSyncExternalStore(subscribe, get, get);
}
