import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { createVaultTools } from '../../src/mcp/tools/vault/index.ts';
import type { ToolDefinition, ToolProvider } from '../../src/mcp/tool.ts';
import { setLearn, SkillLibrary } from '../../src/skills/index.ts';
import { cli, sandbox, type Sandbox } from '../vault/helpers.ts';

let sb: Sandbox;
let provider: ToolProvider;
beforeEach(() => {
  sb = sandbox();
  provider = createVaultTools({ cwd: sb.project, env: sb.env });
});
afterEach(async () => {
  await provider.close?.();
  sb.cleanup();
});

const names = (): string[] => provider.tools().map((t) => t.name);
const call = async (name: string, args: Record<string, unknown>) => {
  const tool = provider.tools().find((t) => t.name === name) as ToolDefinition | undefined;
  assert.ok(tool, `${name} is listed`);
  return tool.handler(tool.inputSchema.parse(args));
};

function waitFor(pred: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (pred()) resolve();
      else if (Date.now() > end) reject(new Error('timed out'));
      else setTimeout(tick, 25);
    };
    tick();
  });
}

test('teach and revise are listed only while learn is on', () => {
  assert.deepEqual(names(), ['vaultstatus']);
  setLearn(true, sb.env);
  assert.deepEqual(names(), ['vaultstatus', 'teach', 'revise']);
  setLearn(false, sb.env);
  assert.deepEqual(names(), ['vaultstatus']);
});

test('onToolsChanged listeners run when `synaptic settings learn` flips in another process', async () => {
  let changes = 0;
  provider.onToolsChanged!(() => changes++);
  const on = cli(sb, ['settings', 'learn', 'on']);
  assert.equal(on.status, 0, on.stderr);
  await waitFor(() => changes === 1);
  assert.deepEqual(names(), ['vaultstatus', 'teach', 'revise']);
  assert.equal(cli(sb, ['settings', 'learn', 'off']).status, 0);
  await waitFor(() => changes === 2);
  assert.deepEqual(names(), ['vaultstatus']);
  assert.equal(cli(sb, ['settings', 'learn']).stdout, 'off\n');
});

test('teach stores a pending skill and says it waits for review; revise returns the revision id', async () => {
  setLearn(true, sb.env);
  const t = await call('teach', {
    name: 'deploy-steps',
    description: 'Deploying the web app',
    instructions: '1. build\n2. ship',
    note: 'worked out today',
    project: join(sb.project, 'sub'),
  });
  assert.equal(t.isError, undefined);
  assert.deepEqual(t.structuredContent, {
    stored: true, status: 'pending', name: 'deploy-steps', scope: 'project', project: sb.project,
    review: 'synaptic skills show deploy-steps, then synaptic skills approve deploy-steps',
  });
  assert.match(t.content[0]!.text, /waiting for the owner's review/);
  const r = await call('revise', { name: 'deploy-steps', instructions: '1. test\n2. build\n3. ship', note: 'forgot tests' });
  assert.deepEqual(r.structuredContent, { name: 'deploy-steps', revision: 'r1', status: 'pending', reached: [], installed: [] });
  const lib = new SkillLibrary(sb.env);
  assert.equal(await lib.instructions(await lib.find('deploy-steps', sb.project)), '1. test\n2. build\n3. ship');
});

test('a stale tool list cannot teach after learn was switched off', async () => {
  setLearn(true, sb.env);
  const teach = provider.tools().find((t) => t.name === 'teach')!;
  setLearn(false, sb.env);
  await assert.rejects(
    async () => teach.handler(teach.inputSchema.parse({ name: 'x', description: 'd', instructions: 'i', note: 'n', project: sb.project })),
    /self-improvement is off/,
  );
});

test('vaultstatus resolves path, then SYNAPTIC_PROJECT_DIR, then cwd', async () => {
  const other = createVaultTools({ cwd: sb.home, env: { ...sb.env, SYNAPTIC_PROJECT_DIR: sb.project } });
  try {
    const viaEnv = other.tools()[0]!.handler({});
    assert.equal((await viaEnv).structuredContent!.path, sb.project);
  } finally {
    await other.close?.();
  }
  const r = await call('vaultstatus', {});
  assert.equal(r.structuredContent!.path, sb.project);
  assert.deepEqual(JSON.parse(r.content[0]!.text), r.structuredContent);
  const sub = await call('vaultstatus', { path: join(sb.project, 'sub') });
  assert.equal(sub.structuredContent!.path, join(sb.project, 'sub'));
  await assert.rejects(async () => call('vaultstatus', { path: join(sb.project, 'missing') }), /does not exist/);
});
