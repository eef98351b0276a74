/**
 * Expand, then contract (docs/decisions/208, docs/operations.md "Upgrading"): during a rolling upgrade
 * the previous release still serves against the schema the new release's migration made, so a release's
 * migration only adds: new tables, nullable or defaulted columns, indexes, functions. What takes
 * something away or changes it under the old code (a drop, a rename, a type change, a new NOT NULL)
 * comes one release later, once no running build reads it, and says so above the statement:
 *
 *   -- contract: products.old_price is unread since 0015 (release 2026.12)
 *
 * naming the earlier migration after which nothing reads it. This reads a migration's SQL and lists
 * what would break the previous build; tests/unit/migration-rules.test.ts holds every migration to it
 * and scripts/previous-build-check.ts runs the previous build against the latest schema for real.
 */

/** One statement (a `--> statement-breakpoint` chunk) that takes something away from the previous build. */
export interface ContractOperation {
  operation: string;
  statement: string;
  /** The text after `-- contract:` above it, if the migration says why it may contract now. */
  annotation: string | null;
}

const CONTRACT_RULES: { operation: string; matches: (statement: string) => boolean }[] = [
  { operation: 'DROP TABLE', matches: (s) => /\bdrop\s+table\b/i.test(s) },
  { operation: 'DROP COLUMN', matches: (s) => /\bdrop\s+column\b/i.test(s) },
  { operation: 'DROP of a view, type, sequence, function or schema', matches: (s) => /\bdrop\s+(materialized\s+view|view|type|sequence|function|schema)\b/i.test(s) },
  { operation: 'RENAME', matches: (s) => /\brename\b/i.test(s) },
  { operation: 'ALTER COLUMN … TYPE', matches: (s) => /\balter\s+column\s+("[^"]+"|\w+)\s+(set\s+data\s+)?type\b/i.test(s) },
  { operation: 'SET NOT NULL', matches: (s) => /\bset\s+not\s+null\b/i.test(s) },
  {
    operation: 'ADD COLUMN … NOT NULL without a DEFAULT',
    matches: (s) => /\badd\s+column\b/i.test(s) && /\bnot\s+null\b/i.test(s) && !/\bdefault\b/i.test(s),
  },
];

/** The statement without comments and string constants, so words in them are not taken for SQL. */
function bareSql(statement: string): string {
  return statement
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function contractOperations(migrationSql: string): ContractOperation[] {
  const found: ContractOperation[] = [];
  for (const chunk of migrationSql.split('--> statement-breakpoint')) {
    const statement = bareSql(chunk);
    if (!statement) continue;
    const annotation = /^\s*--\s*contract:\s*(.+)$/im.exec(chunk)?.[1]?.trim() ?? null;
    for (const rule of CONTRACT_RULES) {
      if (rule.matches(statement)) found.push({ operation: rule.operation, statement: statement.slice(0, 160), annotation });
    }
  }
  return found;
}

/**
 * What is wrong with a migration under the rule, one line each (empty when it only expands, or each
 * contraction says after which earlier migration nothing reads what it takes away).
 */
export function expandContractProblems(tag: string, migrationSql: string, earlierTags: readonly string[]): string[] {
  const earlierNumbers = new Set(earlierTags.map((earlier) => earlier.slice(0, 4)));
  return contractOperations(migrationSql).flatMap(({ operation, statement, annotation }) => {
    if (annotation === null) {
      return [
        `drizzle/${tag}.sql: ${operation} in "${statement}". A release's migration only adds (expand); the previous build still ` +
          `serves against it during a rolling upgrade. Take things away a release later (contract), with "-- contract: <what> is unread since <NNNN>" ` +
          `above the statement (docs/operations.md "Upgrading", docs/decisions/208).`,
      ];
    }
    const cited = annotation.match(/\b\d{4}\b/g) ?? [];
    if (!cited.some((number) => earlierNumbers.has(number))) {
      return [`drizzle/${tag}.sql: the "-- contract:" note above "${statement}" names no earlier migration (NNNN) after which nothing reads it.`];
    }
    return [];
  });
}
