/** Headers for answers that belong to one member: never stored by a browser or a shared cache. */
export const PRIVATE = { 'Cache-Control': 'private, no-store' } as const;
