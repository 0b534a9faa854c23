import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { rawHeader } from '../../src/mcp/http/node-request.node.ts';

const NAMES = ['host', 'authorization', 'x-api-key', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'cookie', 'set-cookie', 'content-type', 'accept', 'user-agent', 'x-empty'];

/** What the transport read before: `req.headers[name]`, an array joined by ', '. */
function reference(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

test('rawHeader() gives the value req.headers would, for repeated, mixed-case and empty headers', async () => {
  let seed = 5;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
  const cased = (name: string) => [name, name.toUpperCase(), name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase())][rnd(3)]!;
  const values = ['', 'v', ' spaced  value ', 'a, b', '2026-07-28', 'Bearer k'];
  const requests: string[] = [];
  for (let r = 0; r < 60; r++) {
    const lines = ['Host: 127.0.0.1'];
    for (let h = 0; h < 1 + rnd(12); h++) lines.push(`${cased(NAMES[rnd(NAMES.length)]!)}: ${values[rnd(values.length)]!}`);
    requests.push(`GET /mcp HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  }
  const seen: Array<{ raw: string[]; got: Array<string | null>; want: Array<string | null> }> = [];
  const server = createServer((req, res) => {
    // rawHeader first: req.headers is built on first access, and must not be what rawHeader reads.
    const got = NAMES.map((name) => rawHeader(req.rawHeaders, name));
    seen.push({ raw: req.rawHeaders, got, want: NAMES.map((name) => reference(req, name)) });
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    for (const request of requests) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(request));
        socket.once('data', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', reject);
      });
    }
  } finally {
    server.close();
  }
  assert.equal(seen.length, requests.length);
  for (const { raw, got, want } of seen) assert.deepEqual(got, want, JSON.stringify(raw));
  assert.equal(rawHeader([], 'host'), null);
  assert.equal(rawHeader(['Cookie', 'a', 'COOKIE', 'b'], 'cookie'), 'a; b');
});
