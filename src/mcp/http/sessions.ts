import { randomBytes } from 'node:crypto';
import type { JsonRpcMessage } from '../protocol.ts';
import type { McpCore, Session } from '../server.ts';
import type { SubscriptionHub } from '../subscriptions.ts';
import { sseEvent } from './reply.ts';

/**
 * Legacy (pre-2026) HTTP sessions, minted at `initialize` and named by `Mcp-Session-Id`: each holds
 * a core session, its SSE streams (GET /mcp) and its resource subscriptions. Sessions idle past
 * `idleMs` are dropped; past `max`, minting a new one evicts the one idle longest first (sessions
 * with an open stream last), so a client that initializes in a loop costs a bounded amount.
 */

export interface LegacySession {
  id: string;
  session: Session;
  lastSeen: number;
  streams: Set<ReadableStreamDefaultController<Uint8Array>>;
  detach: () => void;
}

export interface LegacySessionOptions {
  core: McpCore;
  hub: SubscriptionHub;
  /** Most sessions kept at once (default DEFAULT_MAX_SESSIONS). */
  max?: number;
  /** Sessions idle longer than this are dropped (default one hour). */
  idleMs?: number;
  log?: (line: string) => void;
}

export const DEFAULT_MAX_SESSIONS = 1000;
const SESSION_IDLE_MS = 60 * 60 * 1000;

export class LegacySessions {
  /** In order of last use, least recent first (a use moves a session to the end). */
  private readonly byId = new Map<string, LegacySession>();
  private readonly max: number;
  private readonly reaper: ReturnType<typeof setInterval>;
  private warned = false;

  constructor(private readonly options: LegacySessionOptions) {
    const max = options.max ?? DEFAULT_MAX_SESSIONS;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`Cannot keep legacy HTTP sessions: the limit must be a positive whole number, got ${max}`);
    this.max = max;
    const idle = options.idleMs ?? SESSION_IDLE_MS;
    this.reaper = setInterval(() => this.reap(Date.now() - idle), Math.min(60_000, idle)).unref();
  }

  get size(): number {
    return this.byId.size;
  }

  /** Mint a session (evicting the longest idle one when at the limit). */
  create(): LegacySession {
    if (this.byId.size >= this.max) this.evict();
    const id = randomBytes(16).toString('hex');
    const legacy: LegacySession = { id, session: {}, lastSeen: Date.now(), streams: new Set(), detach: () => {} };
    legacy.session.notify = (msg) => this.push(legacy, msg);
    legacy.detach = this.options.core.attach(legacy.session);
    this.byId.set(id, legacy);
    return legacy;
  }

  /** The session with this id, marked as used now; undefined when unknown, expired or evicted. */
  use(id: string): LegacySession | undefined {
    const legacy = this.byId.get(id);
    if (!legacy) return undefined;
    legacy.lastSeen = Date.now();
    this.byId.delete(id);
    this.byId.set(id, legacy);
    return legacy;
  }

  /** Send a message to every open stream of a session. */
  push(legacy: LegacySession, message: JsonRpcMessage): void {
    this.send(legacy, sseEvent(message));
  }

  /** Send bytes (an event or a heartbeat) to every open stream of every session. */
  broadcast(bytes: Uint8Array): void {
    for (const legacy of this.byId.values()) this.send(legacy, bytes);
  }

  drop(legacy: LegacySession): void {
    if (this.byId.get(legacy.id) === legacy) this.byId.delete(legacy.id);
    legacy.detach();
    this.options.hub.unsubscribe(legacy);
    for (const c of legacy.streams) {
      try {
        c.close();
      } catch {
        // already closed
      }
    }
    legacy.streams.clear();
  }

  /** Drop every session (server shutdown). */
  close(): void {
    clearInterval(this.reaper);
    for (const legacy of [...this.byId.values()]) this.drop(legacy);
  }

  private send(legacy: LegacySession, bytes: Uint8Array): void {
    for (const c of legacy.streams) {
      try {
        c.enqueue(bytes);
      } catch {
        legacy.streams.delete(c);
      }
    }
  }

  /** Evict the least recently used session without an open stream, else the least recently used. */
  private evict(): void {
    let victim: LegacySession | undefined;
    for (const legacy of this.byId.values()) {
      if (legacy.streams.size === 0) {
        victim = legacy;
        break;
      }
      victim ??= legacy;
    }
    if (!victim) return;
    if (!this.warned) {
      this.warned = true;
      this.options.log?.(`[synaptic] warning: ${this.max} legacy HTTP sessions are open; each new initialize now ends the one idle longest`);
    }
    this.drop(victim);
  }

  private reap(cutoff: number): void {
    for (const legacy of [...this.byId.values()]) if (legacy.lastSeen < cutoff && legacy.streams.size === 0) this.drop(legacy);
  }
}
