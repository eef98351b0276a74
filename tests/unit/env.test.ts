import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../../src/server/env';

describe('configuration', () => {
  it('uses the documented defaults', () => {
    const config = parseEnv({});
    expect(config).toMatchObject({
      PORT: 4321,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      SEED_DEMO: true,
      KEEP_ALIVE_TIMEOUT_MS: 65_000,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'nonsense' }, /DATABASE_URL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ SEED_DEMO: 'maybe' }, /SEED_DEMO/],
    [{ PUBLIC_SITE_URL: 'shop' }, /PUBLIC_SITE_URL/],
    [{ LINE_CHANNEL_ID: '1650000000' }, /LINE_CHANNEL_SECRET must be set together/],
    [{ LINE_CHANNEL_SECRET: 'a-channel-secret' }, /LINE_CHANNEL_ID must be set together/],
    [{ LINE_CHANNEL_ID: '1650000000', LINE_CHANNEL_SECRET: 'a-channel-secret', LINE_ISSUER_URL: 'ftp://line' }, /LINE_ISSUER_URL/],
  ])('refuses %o with a line naming the variable', (input, pattern) => {
    expect(() => parseEnv(input)).toThrow(ConfigError);
    expect(() => parseEnv(input)).toThrow(pattern);
  });

  it('accepts memory:// and postgres URLs, and boolean words', () => {
    expect(parseEnv({ DATABASE_URL: 'memory://' }).DATABASE_URL).toBe('memory://');
    expect(parseEnv({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/shop' }).DATABASE_URL).toContain('postgres://');
    expect(parseEnv({ SEED_DEMO: 'false' }).SEED_DEMO).toBe(false);
    expect(parseEnv({ SEED_DEMO: '0' }).SEED_DEMO).toBe(false);
  });
});
