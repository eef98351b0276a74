import { describe, expect, it } from 'vitest';
import { postgresTarget } from '../../src/server/db/postgres-url';

describe('postgresTarget: a Unix socket directory in DATABASE_URL, as libpq writes it', () => {
  it('leaves a plain TCP URL alone', () => {
    expect(postgresTarget('postgres://shop:secret@db.internal:5432/shop?sslmode=require')).toEqual({
      url: 'postgres://shop:secret@db.internal:5432/shop?sslmode=require',
    });
  });

  it('takes ?host= out of the query (postgres.js would send it to the server as a setting)', () => {
    expect(postgresTarget('postgres://shop@/shop?host=/var/run/postgresql&sslmode=disable')).toEqual({
      url: 'postgres://shop@localhost/shop?sslmode=disable',
      host: '/var/run/postgresql',
    });
    expect(postgresTarget('postgresql:///shop?host=%2Ftmp')).toEqual({ url: 'postgresql://localhost/shop', host: '/tmp' });
  });

  it('keeps the port, which names the socket file, and the password', () => {
    expect(postgresTarget('postgres://shop:p%40ss@:5433/shop?host=/run/pg')).toEqual({
      url: 'postgres://shop:p%40ss@localhost:5433/shop',
      host: '/run/pg',
    });
  });

  it('reads a percent-encoded directory in the authority', () => {
    expect(postgresTarget('postgres://shop@%2Fvar%2Frun%2Fpostgresql:5433/shop')).toEqual({
      url: 'postgres://shop@%2Fvar%2Frun%2Fpostgresql:5433/shop',
      host: '/var/run/postgresql',
    });
  });

  it('does not throw on a malformed escape', () => {
    expect(postgresTarget('postgres://%E0%A4/shop')).toEqual({ url: 'postgres://%E0%A4/shop' });
  });
});
