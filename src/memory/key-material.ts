/**
 * Secrets without a name or prefix: private-key bodies pasted without their BEGIN line (recognized by
 * what the base64 decodes to, so public certificates and keys pass) and bare 40-character AWS secret
 * keys (recognized as random rather than a word, hash or encoded text).
 */

import { shannonEntropy } from './entropy.ts';

/** A run of standard base64 long enough to hold a key; one match per run, so the scan is linear. */
const BASE64_RUN = /[A-Za-z0-9+/]{64,}/g;
/** "openssh-key-v1\0" in base64: the start of every OpenSSH private key. */
const OPENSSH_MAGIC = 'b3BlbnNzaC1rZXktdjE';

function decodePrefix(run: string, chars: number): Uint8Array | null {
  try {
    return Uint8Array.from(atob(run.slice(0, chars - (chars % 4))), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * True for the DER of a private key: a SEQUENCE whose first element is a small version INTEGER
 * (0, 1 or 3) followed by key material: an INTEGER (PKCS#1 RSA, DSA), an algorithm SEQUENCE
 * (PKCS#8, PKCS#12) or an OCTET STRING (SEC1 EC). Certificates, public keys and CSRs open with a
 * nested SEQUENCE or a long INTEGER instead.
 */
export function isPrivateKeyDer(b: Uint8Array): boolean {
  if (b[0] !== 0x30) return false;
  const lengthByte = b[1] ?? 0xff;
  const i = lengthByte < 0x80 ? 2 : lengthByte >= 0x81 && lengthByte <= 0x83 ? 2 + (lengthByte - 0x80) : -1;
  if (i < 0 || b[i] !== 0x02 || b[i + 1] !== 0x01) return false;
  const version = b[i + 2];
  const next = b[i + 3];
  return (version === 0 || version === 1 || version === 3) && (next === 0x02 || next === 0x30 || next === 0x04);
}

/** A private-key body (DER or OpenSSH) anywhere in `text`, armoured or not. */
export function hasPrivateKeyBody(text: string): boolean {
  for (const m of text.matchAll(BASE64_RUN)) {
    const run = m[0];
    if (run.startsWith(OPENSSH_MAGIC)) return true;
    const head = decodePrefix(run, 24);
    if (head && isPrivateKeyDer(head)) return true;
  }
  return false;
}

/**
 * True for base64 of public key material: DER that is not a private key (a certificate, a public
 * key, a CSR) or an SSH public key blob (a length-prefixed "ssh-…" or "ecdsa-…" name). A value
 * labelled `key:` may be one of these and is then no secret.
 */
export function isPublicKeyMaterial(value: string): boolean {
  if (value.length < 64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const head = decodePrefix(value, 24);
  if (!head) return false;
  if (head[0] === 0x30) return !isPrivateKeyDer(head);
  const name = String.fromCharCode(...head.subarray(4, 10));
  return head[0] === 0 && head[1] === 0 && head[2] === 0 && /^(?:ssh-|ecdsa-|sk-)/.test(name);
}

/**
 * Exactly 40 base64 characters standing alone: the shape of an AWS secret access key. A piece of a
 * longer base64url value (split by `-`, `_`), of a URL-encoded one (`%`) or after a `.` is not alone.
 */
const FORTY = /(?<![A-Za-z0-9+/=_.%-])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=_%-])/g;
/** Words, acronyms, numbers and separators: an identifier splits into few long pieces, a random string into many short ones. */
const PIECES = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+|[+/]/g;

/** True when base64 `s` decodes to printable text (base64 of a sentence or config, not of random bytes). */
function decodesToText(s: string): boolean {
  let decoded: string;
  try {
    decoded = atob(s);
  } catch {
    return false;
  }
  let printable = 0;
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d) printable++;
  }
  return printable >= decoded.length * 0.9;
}

/** True for a 40-character random-looking token: an AWS secret access key without its name. */
export function looksLikeAwsSecret(token: string): boolean {
  if (!/[A-Z]/.test(token) || !/[a-z]/.test(token) || !/[0-9]/.test(token)) return false;
  if (/^[0-9A-Fa-f]+$/.test(token)) return false; // a hash
  if (shannonEntropy(token) < 4) return false;
  if (token.length / (token.match(PIECES)?.length ?? 1) >= 3.2) return false; // CamelCase words, paths
  return !decodesToText(token);
}

/** A bare AWS secret access key anywhere in `text`. */
export function hasBareAwsSecret(text: string): boolean {
  for (const m of text.matchAll(FORTY)) if (looksLikeAwsSecret(m[0])) return true;
  return false;
}
