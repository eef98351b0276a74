/**
 * Operators whose selectivity, and so the best plan, depends on the pattern's value: how common a
 * search word is decides whether to read the trigram index or walk a sorted one, and a generic plan
 * cannot see it. Statements using them are planned for their values on every run; every other
 * statement is prepared once per connection and left to PostgreSQL's plan cache
 * (`plan_cache_mode = auto`), on PGlite and on a PostgreSQL server alike (docs/decisions/123, 125, 148).
 */
const PATTERN_OPERATOR = /\b(?:i?like|strpos|(?:strict_)?(?:word_)?similarity)\b|<<?%|%>>?/i;

export function plannedPerValue(statement: string): boolean {
  return PATTERN_OPERATOR.test(statement);
}
