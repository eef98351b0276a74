/**
 * A value built once per database (or transaction) object and kept as long as that object lives:
 * Drizzle prepared queries, whose SQL is built when they are made (docs/decisions/150). A database
 * opened again, as the tests do per file, gets its own.
 */
export function perDatabase<D extends object, T>(build: (db: D) => T): (db: D) => T {
  const built = new WeakMap<D, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) {
      value = build(db);
      built.set(db, value);
    }
    return value;
  };
}
