import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { extractFixture, MODERN_META, RawServer, serveArgs } from './helpers.ts';

let fx: ReturnType<typeof extractFixture>;

before(() => {
  fx = extractFixture();
});

after(() => fx?.cleanup());

/** A ping whose line is exactly `bytes` long (padding in an ignored param). */
function pingLine(id: number, bytes: number): string {
  const head = `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"pad":"`;
  const tail = '"}}';
  return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
}

type Reply = { id: unknown; result?: unknown; error?: { code: number; message: string } };

async function oversizedThenValid(server: RawServer, oversized: string): Promise<Reply> {
  const first = server.nextLine(20000);
  server.send(oversized);
  const refusal = JSON.parse(await first) as Reply;
  const pong = await server.request({ jsonrpc: '2.0', id: 'after', method: 'ping', params: { _meta: MODERN_META } });
  assert.equal((pong.result as { resultType?: string } | undefined)?.resultType, 'complete', `the server still answers the next request: ${JSON.stringify(pong)}`);
  assert.equal(server.child.exitCode, null);
  return refusal;
}

test('serve on stdio: a line over the default 64 MiB is answered with -32600, skipped, and the next request works', async () => {
  const server = new RawServer(serveArgs(fx.graph, '--no-freshen'), fx.env);
  try {
    await server.ready();
    const refusal = await oversizedThenValid(server, pingLine(1, 64 * 1024 * 1024 + 1));
    assert.equal(refusal.id, null);
    assert.equal(refusal.error?.code, -32600);
    assert.match(refusal.error!.message, /line limit of 64 MiB \(67108864 bytes\).*--max-line-bytes <n>/);
    assert.match(server.stderr, /skipped an input line longer than 64 MiB/);
  } finally {
    await server.close();
  }
});

test('serve --max-line-bytes 2K: a longer line is refused naming 2048 bytes, a line at the limit is answered', async () => {
  const server = new RawServer(serveArgs(fx.graph, '--no-freshen', '--max-line-bytes', '2K'), fx.env);
  try {
    await server.ready();
    const refusal = await oversizedThenValid(server, pingLine(1, 2049));
    assert.equal(refusal.id, null);
    assert.equal(refusal.error?.code, -32600);
    assert.match(refusal.error!.message, /line limit of 2048 bytes/);
    const atLimit = server.nextLine();
    server.send(pingLine(2, 2048));
    assert.deepEqual(JSON.parse(await atLimit), { jsonrpc: '2.0', id: 2, result: {} });
  } finally {
    await server.close();
  }
});

test('serve --max-line-bytes: a bad value exits 2 with the accepted range; --help documents the flag', () => {
  for (const bad of ['abc', '0', '1023', '-5', '1.5M', '513M', '1G', '99999999999']) {
    const r = spawnSync(process.execPath, serveArgs(fx.graph, '--max-line-bytes', bad), { env: fx.env, encoding: 'utf8' });
    assert.equal(r.status, 2, `${bad}: ${r.stderr}`);
    assert.match(r.stderr, /--max-line-bytes must be a whole number of bytes from 1024 to \d+, optionally with a K, M or G suffix/, bad);
  }
  const http = spawnSync(process.execPath, serveArgs(fx.graph, '--http', '127.0.0.1:0', '--max-line-bytes', '1M'), { env: fx.env, encoding: 'utf8' });
  assert.equal(http.status, 2);
  assert.match(http.stderr, /--max-line-bytes applies to stdio/);
  const help = spawnSync(process.execPath, serveArgs(fx.graph, '--help'), { env: fx.env, encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--max-line-bytes <n> +on stdio: the largest message/);
});
