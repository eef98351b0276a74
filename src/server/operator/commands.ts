import { userInfo } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { env } from '../env.ts';
import { members, productPriceTiers, products } from '../db/schema.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { AppError } from '../http/errors.ts';
import { CLI_ACTOR, recordAudit } from '../audit/audit.service.ts';
import * as orders from '../orders/order.service.ts';
import * as repo from '../orders/order.repo.ts';
import * as outbox from '../mail/outbox.ts';
import { drainOutbox } from '../mail/outbox-worker.ts';
import { formatBahtExact } from '../../lib/money.ts';
import { ORDER_STATUSES, paymentMethodLabels, statusLabels } from '../../lib/orders.ts';
import { ROLES, isRole, roleFromScopes } from '../../lib/roles.ts';

/**
 * The operator's commands (`npm run shop -- …`). They run in whichever process holds the database: the
 * CLI itself, or the running server when the CLI reaches it through its operator socket
 * (docs/decisions/080-operator-cli-through-the-server.md). Output is collected, not printed, so both
 * paths show the operator the same lines.
 */
export const USAGE = `Usage: npm run shop -- <command> [options]

  list [--status STATUS] [--limit N]        newest orders (all statuses by default)
  show <order-no>                           one order with its lines and history
  confirm-payment <order-no>                payment received: the order goes to "to ship"
  reject-slip <order-no> [--note TEXT]      the slip does not match: back to waiting for payment
  ship <order-no> --tracking NO [--carrier NAME]
  deliver <order-no>                        the parcel has arrived
  cancel <order-no> [--note TEXT]           cancel before shipping (stock comes back)
  expire-unpaid                             expire unpaid orders past their time (stock comes back)
  set-price <code> <baht> [--tier MIN=BAHT]…  a product's price (and wholesale tier prices), with an audit row
  grant <owner|staff|editor> <email>        give a member a back-office role (replaces any other role)
  revoke <email>                            take a member's back-office role away
  grant-admin <email> · revoke-admin <email>  the same as grant staff · revoke (kept for old scripts)
  mail-list [--status STATUS] [--limit N]   newest outbox mails (pending, sent, failed)
  mail-failed [--limit N]                   mails that failed for good, with their last error
  mail-resend <id>                          send a mail again (fresh tries, due now)
  mail-send                                 send every due mail now
  backup [--out FILE]                       the whole shop (tables and uploads) in one archive, while it sells;
                                            default DATA_DIR/backups/shop-<time>.tar.gz
  restore FILE [--database postgres://…]    an archive into an empty shop, the shop stopped there
                                            (never through a running server; docs/operations.md)
  pictures-unused [--delete]                stored pictures no row names any more (replaced, removed),
                                            older than a day; --delete removes their files

Every command that changes an order sends the mails it queued before it ends.

Works while the server runs: on the embedded database the command is carried out by the server.
Statuses: ${ORDER_STATUSES.join(' ')}`;

export interface CommandResult {
  exitCode: number;
  out: string;
  err: string;
}

class UsageError extends Error {}

export async function runOperatorCommand(argv: readonly string[], operator = userInfo().username): Promise<CommandResult> {
  const out: string[] = [];
  const err: string[] = [];
  const print = (line: string) => out.push(line);
  let exitCode = 0;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        status: { type: 'string' },
        limit: { type: 'string' },
        tracking: { type: 'string' },
        carrier: { type: 'string' },
        note: { type: 'string' },
        tier: { type: 'string', multiple: true },
        out: { type: 'string' },
        delete: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    const [command, ...args] = positionals;
    if (!command || values.help) {
      (command ? out : err).push(USAGE);
      return { exitCode: command ? 0 : 2, out: out.join('\n'), err: err.join('\n') };
    }
    const staff = { type: 'staff' as const, id: `cli:${operator}` };
    // Order changes from the CLI land in the audit trail, in the same transaction as the change.
    const audit = { audit: { ...CLI_ACTOR, email: `operator ${operator} (CLI)` } };
    const orderNo = () => {
      if (!args[0]) throw new UsageError(`${command} needs an order number.`);
      return args[0].trim().toUpperCase();
    };
    switch (command) {
      case 'list': {
        const status = values.status ?? null;
        if (status && !ORDER_STATUSES.includes(status as never)) throw new UsageError(`Unknown status ${status}`);
        const limit = Math.min(Math.max(Number(values.limit ?? 50) || 50, 1), 1000);
        const rows = await repo.listAllOrders(await getDb(), status as never, limit);
        if (rows.length === 0) print('No orders.');
        for (const row of rows) {
          print(
            [row.orderNo, row.status.padEnd(15), formatBahtExact(row.totalSatang).padStart(14), row.paymentMethod.padEnd(13), row.createdAt.toISOString(), row.email].join('  '),
          );
        }
        break;
      }
      case 'show':
        printOrder(print, await orders.getOrder(staff, orderNo()));
        break;
      case 'backup': {
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const file = path.resolve(values.out ?? path.join(env().DATA_DIR, 'backups', `shop-${stamp}.tar.gz`));
        const { createBackup } = await import('../backup/backup.service.ts');
        const done = await createBackup(file);
        const rows = done.manifest.tables.reduce((sum, table) => sum + table.rows, 0);
        print(`Backup written: ${done.file}`);
        print(`  ${done.manifest.tables.length} tables, ${rows.toLocaleString('en')} rows, ${done.manifest.files.length} files, migration ${done.manifest.migrations.count} (${done.manifest.migrations.last})`);
        print(`  consistent as of ${done.manifest.createdAt}; took ${(done.ms / 1000).toFixed(1)} s`);
        break;
      }
      case 'pictures-unused':
        await unusedPictures(print, values.delete === true, operator);
        break;
      case 'restore':
        throw new UsageError('restore runs only in the operator tool with the shop stopped: stop the server, then run npm run shop -- restore FILE');
      case 'confirm-payment':
      case 'confirm':
        printOrder(print, await orders.changeOrderStatus(staff, orderNo(), { action: 'confirm_payment', note: values.note }, audit));
        break;
      case 'reject-slip':
        printOrder(print, await orders.changeOrderStatus(staff, orderNo(), { action: 'reject_slip', note: values.note }, audit));
        break;
      case 'ship':
        printOrder(
          print,
          await orders.changeOrderStatus(staff, orderNo(), { action: 'ship', trackingNo: values.tracking, carrier: values.carrier, note: values.note }, audit),
        );
        break;
      case 'deliver':
        printOrder(print, await orders.changeOrderStatus(staff, orderNo(), { action: 'deliver', note: values.note }, audit));
        break;
      case 'cancel':
        printOrder(print, await orders.changeOrderStatus(staff, orderNo(), { action: 'cancel', note: values.note }, audit));
        break;
      case 'expire-unpaid': {
        const expired = await orders.expireUnpaidOrders();
        print(expired.length === 0 ? 'No unpaid order is past its time.' : `Expired ${expired.length}: ${expired.join(', ')}`);
        break;
      }
      case 'set-price': {
        const [code, baht] = args;
        const satang = Math.round(Number(baht) * 100);
        if (!code || !baht || !Number.isSafeInteger(satang) || satang <= 0) throw new UsageError('set-price needs a product code and a price in baht.');
        const tiers = (values.tier ?? []).map((text) => {
          const match = /^(\d+)=(\d+(?:\.\d{1,2})?)$/.exec(text);
          if (!match) throw new UsageError(`--tier takes MIN=BAHT, not ${text}`);
          return { minQuantity: Number(match[1]), priceSatang: Math.round(Number(match[2]) * 100) };
        });
        print(await setPrice(code.trim(), satang, tiers, operator));
        break;
      }
      case 'grant':
      case 'grant-admin': {
        const [role, email] = command === 'grant-admin' ? ['staff', args[0]] : [args[0], args[1]];
        if (!isRole(role)) throw new UsageError(`grant needs a role (${ROLES.join(', ')}) and an email.`);
        if (!email) throw new UsageError(`${command} needs an email.`);
        print(await setRole(email, role, operator));
        break;
      }
      case 'revoke':
      case 'revoke-admin': {
        if (!args[0]) throw new UsageError(`${command} needs an email.`);
        print(await setRole(args[0], null, operator));
        break;
      }
      case 'mail-list': {
        const status = values.status ? [values.status as 'pending' | 'sent' | 'failed'] : undefined;
        if (status && !['pending', 'sent', 'failed'].includes(status[0]!)) throw new UsageError(`Unknown mail status ${values.status}`);
        printMails(print, await outbox.listMails({ ...(status ? { status } : {}), limit: Math.min(Math.max(Number(values.limit ?? 50) || 50, 1), 500) }));
        break;
      }
      case 'mail-failed':
        printMails(print, await outbox.listFailedMails(Math.min(Math.max(Number(values.limit ?? 50) || 50, 1), 500)));
        break;
      case 'mail-resend': {
        const id = Number(args[0]);
        if (!Number.isInteger(id) || id <= 0) throw new UsageError('mail-resend needs a mail id (see mail-failed)');
        const mail = await outbox.resendMail(id);
        print(`Mail ${mail.id} to ${mail.to} is due again.`);
        await drainOutbox();
        const tried = await outbox.awaitMailAttempt(mail.id);
        if (tried?.status === 'sent') print(`Mail ${mail.id} sent.`);
        else if (tried?.lastError) print(`Mail ${mail.id} not sent yet (${tried.status}): ${tried.lastError}`);
        else print(`Mail ${mail.id} is still being sent; see mail-list.`);
        break;
      }
      case 'mail-send':
        break;
      default:
        throw new UsageError(`Unknown command ${command}.`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      err.push(`${error.message}\n\n${USAGE}`);
      exitCode = 2;
    } else {
      err.push(error instanceof AppError ? `${error.message} (${error.code})` : error instanceof Error ? error.message : String(error));
      exitCode = 1;
    }
  } finally {
    // Mails this command queued (and any other due ones) go out now; a failure stays in the outbox.
    try {
      const run = await drainOutbox();
      if (run.sent + run.retrying + run.failed > 0) out.push(`Mails: ${run.sent} sent, ${run.retrying} to retry, ${run.failed} failed.`);
    } catch (error) {
      err.push(`Mails not sent now (they stay in the outbox): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { exitCode, out: out.join('\n'), err: err.join('\n') };
}

/** A product's price and named tier prices, in one transaction with its audit row; cached pages follow. */
async function setPrice(code: string, priceSatang: number, tiers: { minQuantity: number; priceSatang: number }[], operator: string): Promise<string> {
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const [product] = await tx.select().from(products).where(eq(products.code, code)).for('update');
    if (!product) throw new Error(`No product with the code ${code}`);
    const beforeTiers = await tx.select().from(productPriceTiers).where(and(eq(productPriceTiers.productId, product.id), isNull(productPriceTiers.variantId)));
    await tx.update(products).set({ priceSatang, updatedAt: sql`now()` }).where(eq(products.id, product.id));
    for (const tier of tiers) {
      const updated = await tx
        .update(productPriceTiers)
        .set({ priceSatang: tier.priceSatang })
        .where(and(eq(productPriceTiers.productId, product.id), isNull(productPriceTiers.variantId), eq(productPriceTiers.minQuantity, tier.minQuantity)))
        .returning({ id: productPriceTiers.id });
      if (updated.length === 0) throw new Error(`${code} has no tier from ${tier.minQuantity} pieces`);
    }
    const afterTiers = await tx.select().from(productPriceTiers).where(and(eq(productPriceTiers.productId, product.id), isNull(productPriceTiers.variantId)));
    const shape = (rows: typeof beforeTiers) => rows.map((row) => ({ minQuantity: row.minQuantity, priceSatang: row.priceSatang })).sort((a, b) => a.minQuantity - b.minQuantity);
    await recordAudit(tx, { ...CLI_ACTOR, email: `operator ${operator} (CLI)` }, {
      action: 'product.update',
      entityType: 'product',
      entityId: String(product.id),
      before: { code, priceSatang: product.priceSatang, tiers: shape(beforeTiers) },
      after: { code, priceSatang, tiers: shape(afterTiers) },
    });
    return { line: `${code}: ${formatBahtExact(product.priceSatang)} → ${formatBahtExact(priceSatang)}${afterTiers.length ? ` (tiers ${shape(afterTiers).map((tier) => `${tier.minQuantity}+ ${formatBahtExact(tier.priceSatang)}`).join(', ')})` : ''}` };
  });
  await invalidateCatalog({ productCodes: [code] });
  return result.line;
}

/** Gives (or with null takes away) a member's back-office role, in one transaction with its audit row. */
async function setRole(emailInput: string, role: (typeof ROLES)[number] | null, operator: string): Promise<string> {
  const email = emailInput.trim().toLowerCase();
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: members.id, email: members.email, scopes: members.scopes })
      .from(members)
      .where(sql`lower(${members.email}) = ${email}`)
      .for('update');
    if (!member) throw new Error(`No member with the email ${emailInput.trim()}`);
    const kept = member.scopes.filter((scope) => !isRole(scope) && scope !== 'admin');
    const scopes = role ? [...kept, role] : kept;
    await tx.update(members).set({ scopes, updatedAt: sql`now()` }).where(sql`${members.id} = ${member.id}`);
    await recordAudit(tx, { ...CLI_ACTOR, email: `operator ${operator} (CLI)` }, {
      action: role ? 'staff.grant' : 'staff.revoke',
      entityType: 'member',
      entityId: member.id,
      before: { email: member.email, role: roleFromScopes(member.scopes), scopes: member.scopes },
      after: { email: member.email, role, scopes },
    });
    return `${member.email}: role ${role ?? 'none'} (scopes ${JSON.stringify(scopes)})`;
  });
}

/** Lists the stored pictures no row names (the oldest 50), and with `remove` deletes them, with an audit row. */
async function unusedPictures(print: (line: string) => void, remove: boolean, operator: string): Promise<void> {
  const { deleteUnusedPictures, findUnusedPictures } = await import('../storage/unused-pictures.ts');
  const found = await findUnusedPictures();
  const files = (pictures: typeof found.unused) => pictures.reduce((sum, picture) => sum + picture.files.length, 0);
  print(
    `${found.stored} stored pictures; ${found.unused.length} named by no row (${files(found.unused)} files)` +
      (found.tooNew > 0 ? `; ${found.tooNew} more stored within the last day are kept.` : '.'),
  );
  for (const picture of found.unused.slice(0, 50)) {
    print(`  ${picture.stem}  ${picture.files.length} files, stored ${picture.files[0]!.modifiedAt.toISOString().slice(0, 10)}`);
  }
  if (found.unused.length > 50) print(`  … and ${found.unused.length - 50} more`);
  if (found.unused.length === 0) return;
  if (!remove) {
    print('Nothing deleted: run again with --delete to remove them.');
    return;
  }
  const deleted = await deleteUnusedPictures(found.unused);
  if (deleted.length === 0) {
    print('Nothing deleted: each of them is named by a row again.');
    return;
  }
  await recordAudit(await getDb(), { ...CLI_ACTOR, email: `operator ${operator} (CLI)` }, {
    action: 'storage.pictures_delete',
    entityType: 'storage',
    entityId: 'public',
    before: { storedPictures: found.stored },
    after: { storedPictures: found.stored - deleted.length },
    note: deleted.map((picture) => picture.stem).join(' ').slice(0, 2000),
  });
  print(`Deleted ${deleted.length} pictures (${files(deleted)} files).`);
}

function printMails(print: (line: string) => void, mails: Awaited<ReturnType<typeof outbox.listMails>>): void {
  if (mails.length === 0) print('No mails.');
  for (const mail of mails) {
    print([String(mail.id).padStart(6), mail.status.padEnd(7), mail.kind.padEnd(16), `tries ${mail.attempts}`, mail.createdAt, mail.to, mail.orderNo ?? ''].join('  '));
    if (mail.lastError) print(`        last error: ${mail.lastError}`);
  }
}

type View = Awaited<ReturnType<typeof orders.getOrder>>;

function printOrder(print: (line: string) => void, order: View): void {
  print(`${order.orderNo}  ${order.status} (${statusLabels[order.status]})  ${formatBahtExact(order.totalSatang)}`);
  print(`  placed ${order.createdAt}  payment ${paymentMethodLabels[order.paymentMethod]}  delivery ${order.deliveryName}`);
  const a = order.address;
  print(`  ship to ${a.recipientName} ${a.phone}, ${a.line1} ${a.subdistrict} ${a.district} ${a.province} ${a.postcode}`);
  for (const line of order.lines) {
    print(`  - ${line.productCode} ${line.productName} × ${line.amount} @ ${formatBahtExact(line.unitPriceSatang)} = ${formatBahtExact(line.lineTotalSatang)}`);
  }
  print(
    `  subtotal ${formatBahtExact(order.subtotalSatang)}  discount ${formatBahtExact(order.discountSatang)}${order.promotionCode ? ` (${order.promotionCode})` : ''}  shipping ${formatBahtExact(order.shippingFeeSatang)}  VAT incl. ${formatBahtExact(order.vatSatang)}`,
  );
  if (order.note) print(`  note: ${order.note}`);
  if (order.hasSlip) {
    const check = order.slipCheck;
    print(`  slip: uploaded${check ? `  QR: ${check.label}${check.reference ? ` ${check.bankLabel} ref ${check.reference}` : ''}${check.warning ? ` (${check.warning})` : ''}` : ''}`);
  }
  if (order.documents?.receiptNo) print(`  receipt ${order.documents.receiptNo}${order.documents.taxInvoice?.invoiceNo ? `  tax invoice ${order.documents.taxInvoice.invoiceNo}` : ''}`);
  if (order.trackingNo) print(`  ${order.carrier ?? ''} ${order.trackingNo} ${order.trackingUrl ?? ''}`);
  if (order.expiresAt) print(`  pay before ${order.expiresAt}`);
  for (const event of order.events) {
    print(`  ${event.createdAt}  ${event.fromStatus ?? '—'} → ${event.toStatus}  by ${event.actorType}${event.note ? `: ${event.note}` : ''}`);
  }
}
