import { getDb } from '../db/client.ts';
import { errorFields, log } from '../log.ts';
import type { CategorySummary } from '../../lib/types.ts';
import { keptValue } from '../cache/kept-value.ts';
import { listActiveCategories } from './category.repo.ts';

const KEEP_MS = 60_000;
const kept = keptValue(async () => listActiveCategories(await getDb()), KEEP_MS);
/** What the navbar showed last, for when the categories cannot be read: the page still renders. */
let lastShown: CategorySummary[] = [];

/** Categories for the navbar and footer: the same for everyone, kept for a minute. */
export async function navigationCategories(): Promise<CategorySummary[]> {
  try {
    lastShown = await kept.get();
    return lastShown;
  } catch (error) {
    log.error('categories could not be loaded for the navbar', errorFields(error));
    return lastShown;
  }
}

export function invalidateNavigation(): void {
  kept.drop();
  lastShown = [];
}
