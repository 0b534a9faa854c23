import { closeSync, constants, linkSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * Where `serve --http` listens and how it says so: the `--http` address, the Host allowlist derived
 * from it (DNS-rebinding protection), and the `--ready-file` handshake (checked before binding,
 * published atomically after).
 */

export interface HttpAddress {
  host: string;
  port: number;
}

/** Parse `host:port`, `[v6]:port` or `:port` (all interfaces is explicit: 0.0.0.0 or [::]). */
export function parseHttpAddress(text: string): HttpAddress {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  if (!m) throw new TypeError(`Cannot parse --http '${text}': expected host:port, e.g. 127.0.0.1:8765 or [::1]:8765`);
  const host = m[1] ?? (m[2] || '127.0.0.1');
  const port = Number(m[3]);
  if (port > 65535) throw new TypeError(`Cannot parse --http '${text}': port ${port} is above 65535`);
  if (host !== 'localhost' && !isIP(host)) throw new TypeError(`Cannot parse --http '${text}': '${host}' is not an IP address or localhost`);
  return { host, port };
}

export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Host header values accepted on a specific or loopback bind. */
export function allowedHostsFor(host: string, port: number): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  names.add(isIP(host) === 6 ? `[${host.toLowerCase()}]` : host.toLowerCase());
  const out = new Set<string>();
  for (const n of names) {
    out.add(n);
    out.add(`${n}:${port}`);
  }
  return out;
}

/** Check a ready-file path before binding: its parent must exist and the file must not. */
export function checkReadyFile(path: string): void {
  let parent;
  try {
    parent = statSync(dirname(path));
  } catch {
    throw new Error(`Cannot use --ready-file ${path}: its parent directory does not exist`);
  }
  if (!parent.isDirectory()) throw new Error(`Cannot use --ready-file ${path}: ${dirname(path)} is not a directory`);
  try {
    statSync(path);
  } catch {
    return;
  }
  throw new Error(`Cannot use --ready-file ${path}: the file already exists (it is never overwritten)`);
}

/** Atomically publish the ready file (mode 0600): write a temp file, then hard-link it into place (fails if present). */
export function writeReadyFile(path: string, content: string): void {
  const tmp = join(dirname(path), `.${process.pid}.${Date.now()}.ready.tmp`);
  const fd = openSync(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (err) {
    throw new Error(`Cannot write --ready-file ${path}: ${(err as NodeJS.ErrnoException).code === 'EEXIST' ? 'the file already exists' : (err as Error).message}`);
  } finally {
    unlinkSync(tmp);
  }
}
