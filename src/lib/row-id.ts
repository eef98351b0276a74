/**
 * Ids of rows in `serial` columns are PostgreSQL integers: 1 to 2,147,483,647. A larger number in a URL or
 * a form cannot name a row, and sent to the database it fails the query instead of finding nothing.
 */
export const MAX_SERIAL_ID = 2_147_483_647;

/** The id a URL part or form field names, or null when it cannot name a row (the caller answers 404). */
export function serialId(value: unknown): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  const id = Number(value);
  return Number.isInteger(id) && id >= 1 && id <= MAX_SERIAL_ID ? id : null;
}
