import { requireMember } from '../../../server/auth/guard';
import { endpoint } from '../../../server/http/responses';
import { exportMemberData } from '../../../server/members/account-data.service';

/**
 * issue 29: the signed-in member's own data as a JSON file (PDPA: a copy, and a format to take
 * elsewhere). Only the caller's own; a visitor gets 401.
 */
export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  const now = new Date();
  const data = await exportMemberData(member.id, now);
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    status: 200,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="my-data-${day}.json"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
