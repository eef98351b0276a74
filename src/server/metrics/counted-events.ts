/**
 * Events the operator's metrics count (GET /metrics, runtime/metrics.ts), kept on globalThis: the
 * server (runtime/) and the Astro bundle load this file as two modules, and both must see one count,
 * as with the shutdown hooks (../lifecycle.ts). Per process: each instance reports its own.
 */
export type CountedEvent =
  /** A password that did not match, or an account that does not exist. */
  | 'login_failed'
  /** A login refused before the password was checked: too many failures from that address or for that account. */
  | 'login_refused'
  /** A wrong two-step code (TOTP or recovery). */
  | 'second_step_failed'
  /** A two-step lock started, for an account or an address. */
  | 'second_step_locked';

const registryKey = Symbol.for('yimlamai.countedEvents');

function counts(): Map<CountedEvent, number> {
  const holder = globalThis as unknown as Record<symbol, Map<CountedEvent, number> | undefined>;
  holder[registryKey] ??= new Map();
  return holder[registryKey];
}

export function countEvent(event: CountedEvent, by = 1): void {
  counts().set(event, (counts().get(event) ?? 0) + by);
}

/** How many of each event this process has seen since it started. */
export function countedEvents(): ReadonlyMap<CountedEvent, number> {
  return counts();
}
