import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, extractFixture, RawServer, serveArgs, text } from './helpers.ts';
import { keeperSocketPath } from '../../src/extract/keeper-socket.node.ts';

test('serve --watch answers a one-shot synaptic update of its outputs, and its next answer has the edit', { skip: !existsSync(CLI) && 'dist/ not built (npm run build)' }, async () => {
  const fx = extractFixture();
  const server = new RawServer(serveArgs(fx.graph, '--watch'), fx.env);
  try {
    await server.ready();
    const socket = keeperSocketPath(dirname(fx.graph));
    for (let t = 0; !existsSync(socket); t++) {
      assert.ok(t < 200, `the server serves update requests: ${server.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const file = join(fx.repo, 'src/app.ts');
    writeFileSync(file, readFileSync(file, 'utf8') + '\nexport function handedToTheServer(): number {\n  return 5;\n}\n');
    const r = spawnSync(process.execPath, [CLI, 'update', fx.repo, '--json'], { encoding: 'utf8', env: fx.env, timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { watcherPid?: number };
    assert.equal(summary.watcherPid, server.child.pid, 'the server answered');
    // (the server's start-up check may have caught the edit first: either way it is in the outputs now)
    assert.match(readFileSync(fx.graph, 'utf8'), /handedToTheServer/, 'the outputs have the edit when the command returns');
    for (let t = 0; !/update requested; graph updated/.test(server.stderr); t++) {
      assert.ok(t < 100, `the server logs the requested update: ${server.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const answer = text((await server.call(1, 'get_node', { label: 'handedToTheServer' })).result);
    assert.match(answer, /handedToTheServer[\s\S]*src\/app\.ts/, 'the server reloaded what it wrote');
    // --no-watcher: this process updates (nothing left to do).
    const own = JSON.parse(spawnSync(process.execPath, [CLI, 'update', fx.repo, '--json', '--no-watcher'], { encoding: 'utf8', env: fx.env }).stdout) as { watcherPid?: number };
    assert.equal(own.watcherPid, undefined);
  } finally {
    await server.close();
    fx.cleanup();
  }
});
