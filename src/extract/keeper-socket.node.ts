import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExtractSummary } from './pipeline.node.ts';

/**
 * A keeper of an output folder (a running `synaptic update --watch` or `synaptic serve --watch`, both
 * started by the user) answers one-shot `synaptic update` runs of that folder over a local socket (a
 * named pipe on Windows). It already holds the previous outputs in memory, so it updates in a
 * fraction of a fresh process's time; and a one-shot run that rewrote the outputs behind its back
 * would only make its next update re-read everything from disk.
 *
 * One JSON line each way: the client sends an {@link UpdateRequest}, the watcher runs an update that
 * starts after the request arrived and answers with its summary. A watcher of another extractor
 * version or other options declines, and the client runs the update itself.
 */

export interface UpdateRequest {
  op: 'update';
  /** extractorVersion() of the client: a watcher of another build declines. */
  version: string;
  root: string;
  outDir: string;
  maxFileSize: number | null;
}

export type UpdateReply =
  /** `by`: which keeper answered (an `update --watch` or a `serve --watch`). */
  | { ok: true; summary: ExtractSummary; pid: number; by?: KeeperKind }
  /** `declined`: the keeper cannot serve this request (other version or options): run it yourself. */
  | { ok: false; error: string; declined: boolean; by?: KeeperKind };

export type KeeperKind = 'watcher' | 'server';

/** Longest request line accepted (a request is a few hundred bytes). */
const MAX_LINE = 64 * 1024;

/**
 * The socket of the watcher of `outDir` (an absolute, resolved path): in a per-user folder under the
 * temp directory (Unix socket paths are limited to ~100 bytes, so it is named by a hash).
 */
export function keeperSocketPath(outDir: string): string {
  const hash = folderHash(outDir);
  if (process.platform === 'win32') return `\\\\.\\pipe\\synaptic-update-${hash}`;
  return join(socketFolder(), `update-${hash}.sock`);
}

/** A short name for an output folder (socket paths are limited to ~100 bytes). */
function folderHash(outDir: string): string {
  return createHash('sha256').update(outDir).digest('hex').slice(0, 24);
}

function socketFolder(): string {
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
  return join(tmpdir(), `synaptic-${user}`);
}

/**
 * The socket folder exists, is a real directory (not a symlink), is ours and is private (mode 0700);
 * else nobody should listen or connect there: another user could have planted it. Checked before
 * anything in it is used; nothing is ever created in it but the socket, which bind() creates and
 * which cannot follow a planted link.
 */
export function privateFolder(dir = socketFolder()): boolean {
  if (process.platform === 'win32') return true;
  try {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const st = lstatSync(dir);
    return st.isDirectory() && (typeof process.getuid !== 'function' || st.uid === process.getuid()) && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Remove a stale socket file left by a dead keeper: only a socket, never what a link points to. */
function removeStaleSocket(path: string): void {
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // gone already
  }
}

export interface KeeperSocket {
  /** False when another live watcher already serves this folder (this one then only watches). */
  readonly serving: boolean;
  close(): Promise<void>;
}

/** Send one JSON line and read one back; null when nobody answers (no watcher, or it went away). */
function exchange(path: string, request: unknown, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    let settled = false;
    let buffer = '';
    const socket = createConnection(path);
    const finish = (value: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify(request) + '\n'));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end < 0) {
        if (buffer.length > 64 << 20) finish(null);
        return;
      }
      try {
        finish(JSON.parse(buffer.slice(0, end)));
      } catch {
        finish(null);
      }
    });
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(null));
  });
}

/**
 * Ask the watcher of `request.outDir`, if one runs, to update now. Null when no watcher answers:
 * the caller runs the update itself. `timeoutMs` bounds the whole exchange (an update of a big
 * change can take a while; a hung watcher must not hang the caller forever).
 */
export async function askKeeper(request: UpdateRequest, timeoutMs = 10 * 60_000): Promise<UpdateReply | null> {
  if (!privateFolder()) return null;
  const reply = await exchange(keeperSocketPath(request.outDir), request, timeoutMs);
  if (!reply || typeof reply !== 'object') return null;
  const r = reply as Partial<UpdateReply>;
  if (r.ok === true && 'summary' in r && 'pid' in r && typeof r.pid === 'number' && r.summary && typeof r.summary === 'object') return r as UpdateReply;
  if (r.ok === false && 'error' in r && typeof r.error === 'string') {
    const by = 'by' in r && (r.by === 'watcher' || r.by === 'server') ? { by: r.by } : {};
    return { ok: false, error: r.error, declined: 'declined' in r && r.declined === true, ...by };
  }
  return null;
}

const PING = Symbol('ping');

/** Parse a request line; a message naming what is wrong when it is not one. */
function parseRequest(line: string): UpdateRequest | typeof PING | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'the request is not JSON';
  }
  const r = value as { op?: unknown } & Partial<Omit<UpdateRequest, 'op'>> | null;
  if (r && typeof r === 'object' && r.op === 'ping') return PING;
  if (!r || typeof r !== 'object' || r.op !== 'update') return "the request's op is not 'update'";
  if (typeof r.version !== 'string' || typeof r.root !== 'string' || typeof r.outDir !== 'string') return 'the request needs version, root and outDir strings';
  if (r.maxFileSize !== null && typeof r.maxFileSize !== 'number') return "the request's maxFileSize is not a number or null";
  return r as UpdateRequest;
}

/**
 * Serve update requests for `outDir` until closed. `handle` runs the update (or declines). A stale
 * socket left by a dead keeper is replaced; a live one is left alone (`serving` false): the first
 * keeper of a folder answers for it.
 */
export async function serveKeeperSocket(outDir: string, handle: (request: UpdateRequest) => Promise<UpdateReply>): Promise<KeeperSocket> {
  const idle: KeeperSocket = { serving: false, close: async () => {} };
  if (!privateFolder()) return idle;
  const path = keeperSocketPath(outDir);
  if (process.platform !== 'win32') {
    // A socket file answers only while its watcher lives: a ping tells a live one from a stale one.
    if ((await exchange(path, { op: 'ping' }, 2000)) !== null) return idle;
    removeStaleSocket(path);
  }
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setEncoding('utf8');
    let buffer = '';
    const onData = (chunk: string): void => {
      buffer += chunk;
      const end = buffer.indexOf('\n');
      if (end < 0) {
        if (buffer.length > MAX_LINE) socket.destroy();
        return;
      }
      socket.off('data', onData);
      const request = parseRequest(buffer.slice(0, end));
      if (request === PING) {
        socket.end(JSON.stringify({ ok: true, pong: process.pid }) + '\n');
        return;
      }
      const reply: Promise<UpdateReply> = typeof request === 'string'
        ? Promise.resolve({ ok: false, error: `Cannot update: ${request}`, declined: true })
        : handle(request).catch((err: unknown) => ({ ok: false, error: err instanceof Error ? err.message : String(err), declined: false }));
      void reply.then((r) => {
        if (!socket.destroyed) socket.end(JSON.stringify(r) + '\n');
      });
    };
    socket.on('data', onData);
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(path, () => resolve(true));
  });
  if (!listening) return idle;
  server.unref();
  return {
    serving: true,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      // (closing a Unix socket server removes its file)
    },
  };
}

/**
 * Answer the update requests of the outputs `own` describes (same extractor version, repository,
 * output folder and options) by running `update`; any other request is declined, so its client
 * updates in its own process.
 */
export function answerUpdates(own: UpdateRequest, by: KeeperKind, update: () => Promise<ExtractSummary>): Promise<KeeperSocket> {
  return serveKeeperSocket(own.outDir, async (request): Promise<UpdateReply> => {
    if (request.version !== own.version) {
      return { ok: false, error: `this process runs ${own.version}, the request comes from ${request.version}`, declined: true };
    }
    if (request.root !== own.root || request.outDir !== own.outDir || request.maxFileSize !== own.maxFileSize) {
      return { ok: false, error: 'this process extracts with other options', declined: true };
    }
    try {
      return { ok: true, summary: await update(), pid: process.pid, by };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err), declined: false, by };
    }
  });
}
