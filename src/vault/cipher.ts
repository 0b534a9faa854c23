import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { VaultAuthError } from './errors.ts';

/** One sealed value: AES-256-GCM with a 96-bit random IV and a 128-bit tag, all base64. */
export interface Sealed {
  iv: string;
  data: string;
  tag: string;
}

/**
 * Encrypts `plaintext` under `key`. `aad` is authenticated but not encrypted: the store binds each
 * value to its name and folders with it, so swapping entries or widening folders breaks the tag.
 */
export function seal(key: Buffer, plaintext: Buffer, aad: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv: iv.toString('base64'), data: data.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

/** Decrypts a sealed value; a VaultAuthError (`what` names the entry) when the tag does not verify. */
export function open(key: Buffer, sealed: Sealed, aad: string, what: string): Buffer {
  const iv = Buffer.from(sealed.iv, 'base64');
  const tag = Buffer.from(sealed.tag, 'base64');
  if (iv.length !== 12 || tag.length !== 16) {
    throw new VaultAuthError(`Cannot decrypt ${what}: its IV or tag is malformed (the vault file was modified)`);
  }
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
  } catch {
    throw new VaultAuthError(
      `Cannot decrypt ${what}: authentication failed (the vault file was modified, or the key is not the one it was written with)`,
    );
  }
}
