import type { APIRoute } from 'astro';
import { sql } from 'drizzle-orm';
import { database } from '../server/db/client';
import { errorFields, log } from '../server/log';

/** Readiness: the database answers a query. A load balancer sends traffic only while this is 200. */
export const GET: APIRoute = async () => {
  try {
    const db = await database();
    await db.rows(sql`select 1 as ok`);
    return new Response(JSON.stringify({ status: 'ready', database: db.kind }), {
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
    });
  } catch (error) {
    log.warn('readiness check failed', errorFields(error));
    return new Response(JSON.stringify({ status: 'unavailable' }), {
      status: 503,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
    });
  }
};
