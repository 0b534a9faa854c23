import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { cli, cliArgv, filesUnder, ROOT, sandbox, type Sandbox } from './helpers.ts';

const SERVE = join(ROOT, 'src/cli/commands/serve.ts');
const skip = existsSync(SERVE) ? false : 'synaptic serve does not exist yet (src/cli/commands/serve.ts)';

let sb: Sandbox;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
let listChanged = 0;
const SECRET = `serve-secret-${process.pid}-${Date.now()}`;

before(async () => {
  if (skip) return;
  sb = sandbox();
  cpSync(join(ROOT, 'test/fixtures/repo'), sb.project, { recursive: true });
  const ok = (args: string[], input = ''): void => {
    const r = cli(sb, args, { input });
    assert.equal(r.status, 0, `synaptic ${args.join(' ')}: ${r.stderr}`);
  };
  ok(['extract', sb.project, '--workers', '0']);
  ok(['vault', 'set', '--i-am-human', 'API_TOKEN'], SECRET);
  ok(['scope', 'init', '--env', 'API_TOKEN', '--env', 'deploy.Missing']);
  ok(['scope', 'trust', '--i-am-human']);
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [...cliArgv(), 'serve'],
    cwd: sb.project,
    env: { ...sb.env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: 'vault-e2e', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged++;
  });
  await client.connect(transport);
});

after(async () => {
  if (skip) return;
  await client?.close();
  sb.cleanup();
});

async function until(pred: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const toolNames = async (): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name);

test('vaultstatus, teach and revise through the real stdio server', { skip }, async () => {
  const responses: string[] = [];
  assert.ok((await toolNames()).includes('vaultstatus'));
  assert.ok(!(await toolNames()).includes('teach'));

  const st = await client.callTool({ name: 'vaultstatus', arguments: {} });
  responses.push(JSON.stringify(st));
  const s = st.structuredContent as Record<string, unknown>;
  assert.deepEqual(Object.keys(s), ['path', 'backend', 'available', 'unavailable', 'elsewhere', 'ambient', 'shell', 'scopes', 'warnings', 'note']);
  assert.deepEqual([s.path, s.available, s.unavailable, s.elsewhere], [sb.project, ['API_TOKEN'], ['deploy.Missing'], 0]);

  assert.equal(cli(sb, ['settings', 'learn', 'on']).status, 0);
  await until(() => listChanged >= 1);
  const names = await toolNames();
  assert.ok(names.includes('teach') && names.includes('revise'));

  const taught = await client.callTool({
    name: 'teach',
    arguments: { name: 'call-the-api', description: 'Calling the API', instructions: 'Use `synaptic run -- curl`.', note: 'n', project: sb.project },
  });
  responses.push(JSON.stringify(taught));
  assert.equal(taught.isError, undefined);
  assert.equal((taught.structuredContent as { status: string }).status, 'pending');
  const revised = await client.callTool({ name: 'revise', arguments: { name: 'call-the-api', instructions: 'Use `synaptic run -- curl -sS`.', note: 'quiet' } });
  responses.push(JSON.stringify(revised));
  assert.equal((revised.structuredContent as { revision: string }).revision, 'r1');
  const bad = await client.callTool({ name: 'teach', arguments: { name: 'Bad Name', description: 'd', instructions: 'i', note: 'n' } });
  responses.push(JSON.stringify(bad));
  assert.equal(bad.isError, true);

  assert.equal(cli(sb, ['settings', 'learn', 'off']).status, 0);
  await until(() => listChanged >= 2);
  assert.ok(!(await toolNames()).includes('teach'));

  for (const text of [...responses, stderr, ...filesUnder(sb.data).map((f) => readFileSync(f, 'utf8'))]) {
    assert.ok(!text.includes(SECRET) && !text.includes(Buffer.from(SECRET).toString('base64')));
  }
});
