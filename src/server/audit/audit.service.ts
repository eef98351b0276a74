import type { DbOrTx } from '../db/client.ts';
import { auditLog, type AuditVia } from '../db/schema.ts';

/** Who made a change. The CLI and the system (sweeps) have no member behind them. */
export interface AuditActor {
  id: string | null;
  email: string;
  role: string;
  via: AuditVia;
  ip?: string;
}

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId?: string;
  before?: unknown;
  after?: unknown;
  note?: string;
}

export const CLI_ACTOR: AuditActor = { id: null, email: 'operator (CLI)', role: 'operator', via: 'cli' };
export const SYSTEM_ACTOR: AuditActor = { id: null, email: 'system', role: 'system', via: 'system' };

/**
 * Writes one audit row. Pass the transaction that makes the change, so the change and its record commit
 * or roll back together: a change without its record, or a record of a change that never happened, is
 * exactly what an audit trail must not hold.
 */
export async function recordAudit(db: DbOrTx, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email.slice(0, 200),
    actorRole: actor.role,
    via: actor.via,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? '',
    before: entry.before === undefined ? null : toJson(entry.before),
    after: entry.after === undefined ? null : toJson(entry.after),
    note: (entry.note ?? '').slice(0, 2000),
    ip: (actor.ip ?? '').slice(0, 64),
  });
}

/** Dates and other class instances become plain JSON values before they reach jsonb. */
function toJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null)) as unknown;
}
