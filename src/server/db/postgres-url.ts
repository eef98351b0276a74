/**
 * Where DATABASE_URL points postgres.js. Operators write a Unix socket directory the way libpq and
 * psql take it: `postgres://user@/shop?host=/var/run/postgresql`, or the directory percent-encoded in
 * the authority (`postgres://%2Fvar%2Frun%2Fpostgresql/shop`). postgres.js reads neither: it sends an
 * unknown query parameter to the server as a setting, which refuses `host` and fails every
 * connection; it keeps an encoded authority as a host name; and an empty host after a user name is
 * not a URL it can parse. So the host is taken out here and given to it as its `host` option, which
 * it turns into the socket's path when it holds a slash.
 */
export function postgresTarget(url: string): { url: string; host?: string } {
  const queryStart = url.indexOf('?');
  if (queryStart >= 0) {
    const parameters = new URLSearchParams(url.slice(queryStart + 1));
    const host = parameters.get('host');
    if (host) {
      parameters.delete('host');
      const rest = parameters.toString();
      return { url: withHostPlaceholder(url.slice(0, queryStart)) + (rest ? `?${rest}` : ''), host };
    }
  }
  const authority = /^[a-z]+:\/\/([^/?]*)/i.exec(url)?.[1] ?? '';
  const hostPart = authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, '');
  let host: string;
  try {
    host = decodeURIComponent(hostPart);
  } catch {
    return { url };
  }
  return host.startsWith('/') ? { url, host } : { url };
}

/** `postgres://user@/shop` → `postgres://user@localhost/shop`: the URL parses; the `host` option wins. */
function withHostPlaceholder(url: string): string {
  return url.replace(/^([a-z]+:\/\/(?:[^@/?]*@)?)(?=[:/]|$)/i, '$1localhost');
}
