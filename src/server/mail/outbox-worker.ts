import { renderBackInStockMail } from '../back-in-stock/back-in-stock-mails.ts';
import { renderResetMail } from '../auth/reset-mail.ts';
import { renderTwoStepLockMail, renderTwoStepResetMail } from '../auth/two-step-mails.ts';
import { getCompany } from '../company/company.service.ts';
import { database } from '../db/client.ts';
import { env } from '../env.ts';
import { AppError } from '../http/errors.ts';
import { onShutdown } from '../lifecycle.ts';
import { errorFields, log } from '../log.ts';
import { renderOrderMail } from '../orders/order-mail.ts';
import { renderReviewInviteMail, REVIEW_INVITE_KIND } from '../reviews/review-invites.ts';
import { getOrder } from '../orders/order.service.ts';
import { sendMail, type MailMessage } from './mailer.ts';
import { claimDueMails, MAIL_CHANNEL, markFailed, markSent, type MailRow, type OrderMailKind } from './outbox.ts';

/**
 * The outbox worker: one per process, woken by NOTIFY when a mail commits (any instance) and by a
 * poll for retries that come due. Mails are rendered when sent, from the order as it is then.
 */
const BATCH = 10;

/** Not worth retrying: the mail cannot be built (its order is gone). */
class PermanentMailError extends Error {}

async function orderOf(row: MailRow) {
  const orderNo = String(row.payload.orderNo ?? '');
  try {
    return await getOrder({ type: 'system', id: null }, orderNo);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw new PermanentMailError(`order ${orderNo} not found`);
    throw error;
  }
}

async function render(row: MailRow): Promise<Omit<MailMessage, 'to'>> {
  const company = await getCompany();
  if (row.kind.startsWith('order_')) {
    const kind = row.kind.slice('order_'.length) as OrderMailKind;
    return renderOrderMail(await orderOf(row), kind, company);
  }
  if (row.kind === REVIEW_INVITE_KIND) return renderReviewInviteMail(await orderOf(row), company);
  if (row.kind === 'password_reset') {
    if (typeof row.payload.link !== 'string') throw new PermanentMailError('reset link no longer stored');
    return renderResetMail({ name: String(row.payload.name ?? ''), link: String(row.payload.link ?? '') }, company);
  }
  if (row.kind === 'two_step_locked') {
    const { name, ip, lockedUntil, failures } = row.payload;
    return renderTwoStepLockMail({ name: String(name ?? ''), ip: String(ip ?? ''), lockedUntil: String(lockedUntil ?? ''), failures: Number(failures ?? 0) }, company);
  }
  if (row.kind === 'two_step_reset') {
    return renderTwoStepResetMail({ name: String(row.payload.name ?? ''), by: String(row.payload.by ?? '') }, company);
  }
  if (row.kind === 'back_in_stock' || row.kind === 'back_in_stock_confirm') {
    const payload = { variantCode: String(row.payload.variantCode ?? ''), token: String(row.payload.token ?? '') };
    const mail = await renderBackInStockMail(row.kind, payload, company);
    if (!mail) throw new PermanentMailError(`variant ${payload.variantCode} not found`);
    return mail;
  }
  throw new PermanentMailError(`unknown mail kind ${row.kind}`);
}

export interface OutboxRun {
  sent: number;
  retrying: number;
  failed: number;
}

/** Claims and sends one batch of due mails; returns what happened to them. */
export async function processOutbox(limit = BATCH): Promise<OutboxRun> {
  const run: OutboxRun = { sent: 0, retrying: 0, failed: 0 };
  const rows = await claimDueMails(limit);
  for (const row of rows) {
    try {
      const message = await render(row);
      await sendMail({ ...message, to: row.toAddress });
      await markSent(row.id);
      run.sent += 1;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const status = await markFailed(row, reason, error instanceof PermanentMailError);
      if (status === 'failed') {
        run.failed += 1;
        log.error('mail failed for good', { id: row.id, kind: row.kind, attempts: row.attempts, ...errorFields(error) });
      } else {
        run.retrying += 1;
        log.warn('mail send failed, will retry', { id: row.id, kind: row.kind, attempts: row.attempts, ...errorFields(error) });
      }
    }
  }
  return run;
}

/** Sends everything due now (the CLI calls it before it exits; tests use it). */
export async function drainOutbox(): Promise<OutboxRun> {
  const total: OutboxRun = { sent: 0, retrying: 0, failed: 0 };
  for (;;) {
    const run = await processOutbox();
    total.sent += run.sent;
    total.retrying += run.retrying;
    total.failed += run.failed;
    if (run.sent + run.retrying + run.failed < BATCH) return total;
  }
}

interface WorkerState {
  timer: NodeJS.Timeout;
  busy: boolean;
  again: boolean;
  unsubscribe: (() => Promise<void>) | undefined;
  stopped: boolean;
}

const workerKey = Symbol.for('yimlamai.mailWorker');
const holder = globalThis as unknown as Record<symbol, WorkerState | undefined>;

function wake(state: WorkerState): void {
  if (state.stopped) return;
  if (state.busy) {
    state.again = true;
    return;
  }
  state.busy = true;
  void (async () => {
    try {
      do {
        state.again = false;
        const run = await drainOutbox();
        if (run.sent + run.retrying + run.failed > 0) log.info('mail outbox', { ...run });
      } while (state.again && !state.stopped);
    } catch (error) {
      log.error('mail outbox run failed', errorFields(error));
    } finally {
      state.busy = false;
    }
  })();
}

/** Starts this process's worker (idempotent). MAIL_POLL_SECONDS=0 leaves it off. */
export function startMailWorker(): void {
  if (holder[workerKey]) return;
  const seconds = env().MAIL_POLL_SECONDS;
  if (seconds === 0) return;
  const state: WorkerState = { timer: setInterval(() => wake(state), seconds * 1000), busy: false, again: false, unsubscribe: undefined, stopped: false };
  state.timer.unref();
  holder[workerKey] = state;
  void database()
    .then(async (db) => {
      const unsubscribe = await db.subscribe(MAIL_CHANNEL, () => wake(state), () => wake(state));
      if (state.stopped) await unsubscribe();
      else state.unsubscribe = unsubscribe;
      wake(state);
    })
    .catch((error: unknown) => log.error('mail worker could not listen', errorFields(error)));
  onShutdown('mail-outbox-worker', stopMailWorker);
}

/** Stops the worker and waits for the mail it is sending. */
export async function stopMailWorker(): Promise<void> {
  const state = holder[workerKey];
  if (!state) return;
  holder[workerKey] = undefined;
  state.stopped = true;
  clearInterval(state.timer);
  await state.unsubscribe?.();
  for (let i = 0; i < 300 && state.busy; i++) await new Promise((resolve) => setTimeout(resolve, 50));
}
