/** LINE's public addresses the shop links to (issue 31 §7): pure, for pages and islands alike. */

/** แชร์ผ่าน LINE: LINE's share page for an absolute address. */
export function lineShareUrl(pageUrl: string): string {
  return `https://social-plus.line.me/lineit/share?url=${encodeURIComponent(pageUrl)}`;
}

/**
 * The shop's LINE Official Account (its ID from /admin/settings, such as `@yimlamai`): LINE's add-friend
 * address, or null when the ID is empty or not one LINE could have given.
 */
export function lineOaUrl(lineId: string): string | null {
  const id = lineId.trim();
  if (!/^@?[A-Za-z0-9._-]{1,40}$/.test(id)) return null;
  return `https://line.me/R/ti/p/${encodeURIComponent(id.startsWith('@') ? id : `@${id}`)}`;
}
