import { hash, parseOptions, verify, type Options } from '@node-rs/argon2';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet / ASVS 5 baseline: 19 MiB memory, 2 passes,
 * 1 lane. Raising any of these later is safe: hashes made with weaker settings are upgraded at the next
 * successful login (needsRehash).
 */
export const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum in the typings, so spelled as its value)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} satisfies Options;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

export function needsRehash(passwordHash: string): boolean {
  try {
    const current = parseOptions(passwordHash);
    return (
      current.algorithm !== ARGON2_OPTIONS.algorithm ||
      current.memoryCost < ARGON2_OPTIONS.memoryCost ||
      current.timeCost < ARGON2_OPTIONS.timeCost
    );
  } catch {
    return true;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the same time as a real check when the account does not exist, so response times do not
 * tell which emails and phone numbers are members.
 */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummy ??= hashPassword('not-a-real-password-only-for-timing');
  await verifyPassword(await dummy, password);
}
