import { createHmac, randomBytes, scryptSync } from 'node:crypto';
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, writeSync, fsyncSync } from 'node:fs';
import { join } from 'node:path';
import { VaultError } from './errors.ts';
import { ensureDataDir, dataDir, type Env } from './paths.ts';

/** Bytes of an AES-256 key. */
export const KEY_BYTES = 32;
const PASSPHRASE_MIN = 12;

/** The vault key and where it came from (never the key material in `source`). */
export interface VaultKey {
  key: Buffer;
  /** `SYNAPTIC_VAULT_KEY` or the key file path, for error messages. */
  source: string;
}

/** Path of the key file created on first use when `SYNAPTIC_VAULT_KEY` is not set. */
export function keyFilePath(env: Env = process.env): string {
  return join(dataDir(env), 'vault.key');
}

/**
 * Scrypt parameters for a passphrase in `SYNAPTIC_VAULT_KEY`; the salt lives in the vault file.
 * N=2^15 costs about 60 ms here: once per process, not per secret.
 */
export const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/**
 * Loads the vault key: `SYNAPTIC_VAULT_KEY` (64 hex digits, base64 of 32 bytes, or a passphrase of at
 * least 12 characters stretched with scrypt over `salt`), else the 0600 key file, created with
 * 32 random bytes when `create` is set and it does not exist yet.
 */
export function loadKey(env: Env, salt: Buffer, create: boolean): VaultKey | null {
  const fromEnv = env.SYNAPTIC_VAULT_KEY;
  if (fromEnv !== undefined && fromEnv !== '') return { key: parseEnvKey(fromEnv, salt), source: 'SYNAPTIC_VAULT_KEY' };
  const file = keyFilePath(env);
  if (!existsSync(file)) {
    if (!create) return null;
    return { key: createKeyFile(env, file), source: file };
  }
  return { key: readKeyFile(file), source: file };
}

function parseEnvKey(value: string, salt: Buffer): Buffer {
  const v = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(v)) {
    const b = Buffer.from(v, 'base64');
    if (b.length === KEY_BYTES) return b;
  }
  if (v.length < PASSPHRASE_MIN) {
    throw new VaultError(
      `Cannot use SYNAPTIC_VAULT_KEY: give 64 hex digits, base64 of 32 bytes, or a passphrase of at least ${PASSPHRASE_MIN} characters`,
    );
  }
  return scryptSync(v, salt, KEY_BYTES, SCRYPT);
}

function createKeyFile(env: Env, file: string): Buffer {
  ensureDataDir(env);
  const key = randomBytes(KEY_BYTES);
  let fd: number;
  try {
    // O_EXCL: two first uses at once must not each write a different key.
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file);
    throw new VaultError(`Cannot create the vault key file ${file}: ${(err as Error).message}`);
  }
  try {
    writeSync(fd, key.toString('hex') + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return key;
}

function readKeyFile(file: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY);
  } catch (err) {
    throw new VaultError(`Cannot read the vault key file ${file}: ${(err as Error).message}`);
  }
  try {
    const mode = fstatSync(fd).mode & 0o777;
    if (mode & 0o077) {
      throw new VaultError(
        `Cannot use the vault key file ${file}: other users can access it (mode ${mode.toString(8)}); run chmod 600 ${file}`,
      );
    }
    const text = readFileSync(fd, 'utf8').trim();
    if (!/^[0-9a-fA-F]{64}$/.test(text)) {
      throw new VaultError(`Cannot use the vault key file ${file}: it does not hold 64 hex digits`);
    }
    return Buffer.from(text, 'hex');
  } finally {
    closeSync(fd);
  }
}

/** A short fingerprint stored in the vault file so a wrong key is named before any decryption. */
export function keyCheck(key: Buffer): string {
  return createHmac('sha256', key).update('synaptic-vault-key-check-v1').digest('hex').slice(0, 32);
}
