import type { Socket } from 'node:net';

/**
 * A limit on the requests one connection may have in flight (arrived, reply not yet finished).
 * Node's `http.Server` already stops reading a connection whose replies back up unread in the
 * socket (a pipelining client that never reads), but not one whose replies are merely slow: a
 * client pipelining thousands of calls to a slow tool, or while the graph reloads, would have every
 * one parsed and held. Past `max`, reading stops until half of them are answered.
 *
 * The switch is the one Node's server flips for its own backpressure (`socket._paused` plus
 * `socket.pause()`; after the bytes in hand the server pauses its parser, and resumes both on
 * 'drain'). The parser reads a server socket in C++, so `socket.pause()` alone stops nothing. Node
 * may resume early (on a drain); the next request past the limit pauses again, so at most one read
 * (64 KB of requests) goes over. The test that pipelines calls to a server that never answers
 * fails if a Node release changes this.
 */

/** The fields of a server socket that Node's HTTP server uses to pause reading (see above). */
interface ServerSocket extends Socket {
  _paused?: boolean;
  parser?: { resume(): void } | null;
}

/** The default limit: far above what a client awaiting its answers pipelines (undici: 1 by default). */
export const MAX_IN_FLIGHT = 64;

export class PipeliningLimit {
  private readonly inFlight = new WeakMap<Socket, number>();
  /** Times a connection's reading was paused for having `max` requests in flight. */
  pauses = 0;

  constructor(private readonly max = MAX_IN_FLIGHT) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`Cannot limit pipelining: the limit must be a positive whole number, got ${max}`);
  }

  /** A request arrived on `socket` (called from the server's 'request' event, inside the parser's run). */
  admit(socket: Socket): void {
    const s = socket as ServerSocket;
    const n = (this.inFlight.get(s) ?? 0) + 1;
    this.inFlight.set(s, n);
    if (n >= this.max && !s._paused) {
      s._paused = true;
      s.pause();
      this.pauses++;
    }
  }

  /** A request's reply finished (or its connection closed). */
  release(socket: Socket): void {
    const s = socket as ServerSocket;
    const n = (this.inFlight.get(s) ?? 1) - 1;
    this.inFlight.set(s, n);
    // A socket whose writes back up stays paused: Node resumes it on 'drain'.
    if (n <= this.max >> 1 && s._paused && !s.writableNeedDrain && !s.destroyed) {
      s._paused = false;
      s.parser?.resume();
      s.resume();
    }
  }
}
