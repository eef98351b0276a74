import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client';
import { members } from '../../src/server/db/schema';

const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-cli-'));

function shop(...args: string[]) {
  const result = spawnSync(process.execPath, ['scripts/shop.ts', ...args], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('operator CLI on the embedded database', () => {
  it('says clearly that the server holds DATA_DIR, then works once it is free', async () => {
    const held = await openDatabase({ url: undefined, dataDir });
    await held.db.insert(members).values({ firstName: 'เจ้าของ', lastName: 'ร้าน', email: 'Owner@Yimlamai.shop', phone: '0899999999', passwordHash: 'x' });
    const refused = shop('list');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('only one process may open DATA_DIR at a time');
    await held.close();

    const granted = shop('grant-admin', 'owner@yimlamai.shop');
    expect(granted.stderr).toBe('');
    expect(granted.stdout).toContain('"admin"');
    const again = shop('grant-admin', 'owner@yimlamai.shop');
    expect(again.stdout).toContain('scopes ["admin"]');
    const listed = shop('list');
    expect(listed.stdout).toContain('No orders.');
    const unknown = shop('show', 'YL00000000001');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('ไม่พบคำสั่งซื้อนี้');
    const usage = shop('fly');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run shop');
  });
});
