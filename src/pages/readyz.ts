import type { APIRoute } from 'astro';
import { sql } from 'drizzle-orm';
import { database } from '../server/db/client';
import { errorFields, log } from '../server/log';

/** A database that has not answered `select 1` in this long is as good as down for a shopper. */
const DATABASE_ANSWER_MS = 2_000;

function answer(status: number, body: object): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...(status === 503 ? { 'Retry-After': '5' } : {}) },
  });
}

/**
 * Readiness: the database answers a query in time. A load balancer sends traffic only while this is
 * 200. While the server starts (migrations) or drains before it stops, runtime/main.ts answers 503
 * itself before this route is reached.
 */
export const GET: APIRoute = async () => {
  let timer: NodeJS.Timeout | undefined;
  try {
    const db = await database();
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), DATABASE_ANSWER_MS);
    });
    if ((await Promise.race([db.rows(sql`select 1 as ok`), late])) === 'late') {
      log.warn('readiness check: the database did not answer', { ms: DATABASE_ANSWER_MS });
      return answer(503, { status: 'unavailable', reason: 'database not answering' });
    }
    return answer(200, { status: 'ready', database: db.kind });
  } catch (error) {
    log.warn('readiness check failed', errorFields(error));
    return answer(503, { status: 'unavailable', reason: 'database error' });
  } finally {
    clearTimeout(timer);
  }
};
