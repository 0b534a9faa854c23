import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { setLearn } from '../../src/skills/index.ts';
import { fieldSecret, NEGATIVES, POSITIVES, type Shape } from './credential-corpus.ts';
import { tempDir } from './helpers.ts';
import { cliArgv, emptyGraph } from './mcp-child.ts';

// Secrets reach the server the way an agent sends them: SDK client, real `synaptic serve` over stdio.
let t: ReturnType<typeof tempDir>;
let client: Client;
let repo: string;

before(async () => {
  t = tempDir('synaptic-credentials-stdio-');
  repo = join(t.dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const env = { ...process.env, SYNAPTIC_DATA_DIR: join(t.dir, 'data'), HOME: join(t.dir, 'home'), SYNAPTIC_PROJECT_DIR: repo } as Record<string, string>;
  setLearn(true, env); // teach is listed only while learn is on
  const transport = new StdioClientTransport({ command: process.execPath, args: cliArgv(['serve', '--graph', emptyGraph(join(t.dir, 'graph')), '--no-watch']), env, stderr: 'pipe' });
  client = new Client({ name: 'credentials-stdio-test', version: '1.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  t?.cleanup();
});

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;
const text = (r: Result) => r.content.map((c) => c.text ?? '').join('\n');
const shape = (name: string): Shape => POSITIVES.find((s) => s.name === name) ?? assert.fail(`no shape ${name}`);
/** Everything the project's memory holds, newest first. */
const everything = async () => ((await call('recall', { query: '' })).structuredContent!.memories as Array<{ body: string }>).map((m) => m.body);

const SHAPES = [
  'redis URL with password and no user',
  'Authorization: Basic header',
  'curl -u user:password',
  'sshpass -p',
  'docker login -p',
  'bare AWS secret key',
  'RSA key body without the BEGIN line',
  'Slack app-level token',
  'GitHub token split by zero-width spaces',
  'GitHub token in full-width characters',
  'GitHub token in the project path',
  'GitHub token in the source label',
];

for (const name of SHAPES) {
  test(`remember refuses ${name}: an error naming the kind and field, nothing recalled`, async () => {
    const s = shape(name);
    const field = s.field ?? 'content';
    const args: Record<string, unknown> = { content: s.text };
    if (s.field) args[s.field] = fieldSecret(s);
    const r = await call('remember', args);
    assert.equal(r.isError, true, text(r));
    const message = text(r);
    assert.match(message, new RegExp(`Cannot remember: the ${field} field holds what looks like a credential \\(`));
    const kind = /credential \(([^)]*\)?)\)/.exec(message)?.[1] ?? '';
    assert.match(kind, s.kind);
    assert.match(message, /nothing was stored/);
    assert.match(message, /vault/);
    const secret = s.field ? fieldSecret(s) : s.text;
    for (const piece of (secret.match(/[A-Za-z0-9+/_-]{12,}/g) ?? []).filter((p) => /\d/.test(p))) assert.ok(!message.includes(piece), `the error echoes "${piece}"`);
    const all = await everything();
    assert.ok(!all.includes(s.text), 'the refused memory is not recalled');
  });
}

test('ordinary notes about credentials are stored and recalled', async () => {
  for (const note of NEGATIVES.slice(0, 6)) {
    const r = await call('remember', { content: note });
    assert.notEqual(r.isError, true, `${note}: ${text(r)}`);
  }
  const all = await everything();
  for (const note of NEGATIVES.slice(0, 6)) assert.ok(all.includes(note), note);
  assert.equal(all.length, 6, 'only the six notes were stored: every refused shape left nothing');
});

test('teach refuses a skill whose instructions hold a credential, and stores no pending skill', async () => {
  const r = await call('teach', {
    name: 'deploy-staging',
    description: 'How to deploy to staging',
    instructions: `1. ${shape('sshpass -p').text}\n2. run the migrations`,
    note: 'worked out during the outage',
  });
  assert.equal(r.isError, true, text(r));
  assert.match(text(r), /Cannot teach the skill: the instructions field holds what looks like a credential \(command-line password \(sshpass -p\)\), so nothing was stored; skills never hold secrets/);
  assert.ok(!text(r).includes('hunter2xyz'));
  const ok = await call('teach', { name: 'deploy-staging', description: 'How to deploy to staging', instructions: 'Run `synaptic run -- ./deploy.sh`; the password comes from the vault.', note: 'n' });
  assert.notEqual(ok.isError, true, text(ok));
});
