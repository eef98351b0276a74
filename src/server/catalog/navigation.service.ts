import { getDb } from '../db/client.ts';
import { errorFields, log } from '../log.ts';
import type { CategorySummary } from '../../lib/types.ts';
import { listActiveCategories } from './category.repo.ts';

const KEEP_MS = 60_000;
let kept: { at: number; value: CategorySummary[] } | undefined;

/** Categories for the navbar and footer: the same for everyone, kept for a minute. */
export async function navigationCategories(): Promise<CategorySummary[]> {
  if (kept && Date.now() - kept.at < KEEP_MS) return kept.value;
  try {
    const value = await listActiveCategories(await getDb());
    kept = { at: Date.now(), value };
    return value;
  } catch (error) {
    log.error('categories could not be loaded for the navbar', errorFields(error));
    return kept?.value ?? [];
  }
}

export function invalidateNavigation(): void {
  kept = undefined;
}
