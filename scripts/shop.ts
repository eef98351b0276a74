/**
 * The operators' tool: `npm run shop -- <command>`. Uses the server's configuration (DATABASE_URL,
 * DATA_DIR) and the same order rules as the shop, acting as staff. On the embedded database only one
 * process may open DATA_DIR: stop the server first, or run the shop on PostgreSQL.
 */
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';

process.env.SEED_DEMO = 'false';
process.env.ORDER_SWEEP_SECONDS = '0';
process.env.LOG_LEVEL ??= 'warn';

const usage = `Usage: npm run shop -- <command> [options]

  list [--status STATUS] [--limit N]        newest orders (all statuses by default)
  show <order-no>                           one order with its lines and history
  confirm-payment <order-no>                payment received: the order goes to "to ship"
  reject-slip <order-no> [--note TEXT]      the slip does not match: back to waiting for payment
  ship <order-no> --tracking NO [--carrier NAME]
  deliver <order-no>                        the parcel has arrived
  cancel <order-no> [--note TEXT]           cancel before shipping (stock comes back)
  expire-unpaid                             expire unpaid orders past their time (stock comes back)
  grant-admin <email>                       give a member the staff (admin) scope
  revoke-admin <email>                      take it away

Statuses: pending_payment payment_review paid shipped delivered cancelled expired`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    status: { type: 'string' },
    limit: { type: 'string' },
    tracking: { type: 'string' },
    carrier: { type: 'string' },
    note: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

const [command, argument] = positionals;
if (!command || values.help) {
  console.log(usage);
  process.exit(command ? 0 : 2);
}

const { ConfigError, env } = await import('../src/server/env.ts');
try {
  env();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}

const { database } = await import('../src/server/db/client.ts');
const { runShutdownHooks } = await import('../src/server/lifecycle.ts');
const { AppError } = await import('../src/server/http/errors.ts');

try {
  await database();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  if (/in use by process/.test(message)) {
    console.error(
      `${message}\nThe shop server holds the embedded (PGlite) database: only one process may open DATA_DIR at a time.\n` +
        'Stop the server, run this command, then start the server again — or run the shop on PostgreSQL (DATABASE_URL) to use this tool while it runs.',
    );
  } else {
    console.error(`Could not open the database: ${message}`);
  }
  process.exit(1);
}

const orders = await import('../src/server/orders/order.service.ts');
const repo = await import('../src/server/orders/order.repo.ts');
const { formatBahtExact } = await import('../src/lib/money.ts');
const { statusLabels, paymentMethodLabels, ORDER_STATUSES } = await import('../src/lib/orders.ts');
const { getDb } = await import('../src/server/db/client.ts');
const { members } = await import('../src/server/db/schema.ts');
const { sql } = await import('drizzle-orm');

const staff = { type: 'staff' as const, id: `cli:${userInfo().username}` };

function needOrderNo(): string {
  if (!argument) {
    console.error(`${command} needs an order number.\n\n${usage}`);
    process.exit(2);
  }
  return argument.trim().toUpperCase();
}

type View = Awaited<ReturnType<typeof orders.getOrder>>;

function printOrder(order: View): void {
  console.log(`${order.orderNo}  ${order.status} (${statusLabels[order.status]})  ${formatBahtExact(order.totalSatang)}`);
  console.log(`  placed ${order.createdAt}  payment ${paymentMethodLabels[order.paymentMethod]}  delivery ${order.deliveryName}`);
  const a = order.address;
  console.log(`  ship to ${a.recipientName} ${a.phone}, ${a.line1} ${a.subdistrict} ${a.district} ${a.province} ${a.postcode}`);
  for (const line of order.lines) {
    console.log(`  - ${line.productCode} ${line.productName} × ${line.amount} @ ${formatBahtExact(line.unitPriceSatang)} = ${formatBahtExact(line.lineTotalSatang)}`);
  }
  console.log(
    `  subtotal ${formatBahtExact(order.subtotalSatang)}  discount ${formatBahtExact(order.discountSatang)}${order.promotionCode ? ` (${order.promotionCode})` : ''}  shipping ${formatBahtExact(order.shippingFeeSatang)}  VAT incl. ${formatBahtExact(order.vatSatang)}`,
  );
  if (order.note) console.log(`  note: ${order.note}`);
  if (order.hasSlip) console.log('  slip: uploaded');
  if (order.trackingNo) console.log(`  ${order.carrier ?? ''} ${order.trackingNo} ${order.trackingUrl ?? ''}`);
  if (order.expiresAt) console.log(`  pay before ${order.expiresAt}`);
  for (const event of order.events) {
    console.log(`  ${event.createdAt}  ${event.fromStatus ?? '—'} → ${event.toStatus}  by ${event.actorType}${event.note ? `: ${event.note}` : ''}`);
  }
}

let exitCode = 0;
try {
  switch (command) {
    case 'list': {
      const status = values.status ?? null;
      if (status && !ORDER_STATUSES.includes(status as never)) throw new Error(`Unknown status ${status}`);
      const limit = Math.min(Math.max(Number(values.limit ?? 50) || 50, 1), 1000);
      const rows = await repo.listAllOrders(await getDb(), status as never, limit);
      if (rows.length === 0) console.log('No orders.');
      for (const row of rows) {
        console.log(
          [row.orderNo, row.status.padEnd(15), formatBahtExact(row.totalSatang).padStart(14), row.paymentMethod.padEnd(13), row.createdAt.toISOString(), row.email].join('  '),
        );
      }
      break;
    }
    case 'show':
      printOrder(await orders.getOrder(staff, needOrderNo()));
      break;
    case 'confirm-payment':
    case 'confirm':
      printOrder(await orders.changeOrderStatus(staff, needOrderNo(), { action: 'confirm_payment', note: values.note }));
      break;
    case 'reject-slip':
      printOrder(await orders.changeOrderStatus(staff, needOrderNo(), { action: 'reject_slip', note: values.note }));
      break;
    case 'ship':
      printOrder(
        await orders.changeOrderStatus(staff, needOrderNo(), { action: 'ship', trackingNo: values.tracking, carrier: values.carrier, note: values.note }),
      );
      break;
    case 'deliver':
      printOrder(await orders.changeOrderStatus(staff, needOrderNo(), { action: 'deliver', note: values.note }));
      break;
    case 'cancel':
      printOrder(await orders.changeOrderStatus(staff, needOrderNo(), { action: 'cancel', note: values.note }));
      break;
    case 'expire-unpaid': {
      const expired = await orders.expireUnpaidOrders();
      console.log(expired.length === 0 ? 'No unpaid order is past its time.' : `Expired ${expired.length}: ${expired.join(', ')}`);
      break;
    }
    case 'grant-admin':
    case 'revoke-admin': {
      if (!argument) throw new Error(`${command} needs an email`);
      const db = await getDb();
      const granting = command === 'grant-admin';
      const rows = await db
        .update(members)
        .set({
          scopes: granting
            ? sql`(select array_agg(distinct s) from unnest(array_append(${members.scopes}, 'admin')) s)`
            : sql`array_remove(${members.scopes}, 'admin')`,
          updatedAt: sql`now()`,
        })
        .where(sql`lower(${members.email}) = ${argument.trim().toLowerCase()}`)
        .returning({ email: members.email, scopes: members.scopes });
      if (rows.length === 0) throw new Error(`No member with the email ${argument}`);
      console.log(`${rows[0]!.email}: scopes ${JSON.stringify(rows[0]!.scopes)}`);
      break;
    }
    default:
      console.error(`Unknown command ${command}.\n\n${usage}`);
      exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof AppError ? `${error.message} (${error.code})` : error instanceof Error ? error.message : String(error));
  exitCode = 1;
} finally {
  await orders.flushOrderMails();
  await runShutdownHooks();
}
process.exit(exitCode);
