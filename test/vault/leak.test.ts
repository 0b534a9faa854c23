import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createVaultTools } from '../../src/mcp/tools/vault/index.ts';
import type { ToolDefinition } from '../../src/mcp/tool.ts';
import { cli, cliOnTty, cliOnTtySteps, filesUnder, sandbox, type Sandbox } from './helpers.ts';

let sb: Sandbox;
before(() => {
  sb = sandbox();
});
after(() => sb.cleanup());

/** Every encoding a value could leak in. */
function forms(value: string): string[] {
  const b = Buffer.from(value);
  return [value, JSON.stringify(value).slice(1, -1), b.toString('base64'), b.toString('hex'), encodeURIComponent(value)];
}

test('no secret value appears in any output, tool response or file except the exports env prints', async () => {
  const hex = () => randomBytes(8).toString('hex');
  const secrets: Record<string, string> = {
    DATABASE_URL: `postgres://app:leak-${hex()}@db/app`,
    'deploy.RegistryToken': `tok'"\\$\`-${hex()}`,
    FAR_AWAY: `far-${hex()}`,
    GLOBAL_TOKEN: `glob ${hex()} ünï`,
    TYPED_AT_PROMPT: `typed-${hex()}`,
  };
  const sub = join(sb.project, 'sub');
  const elsewhere = join(sb.base, 'elsewhere');
  mkdirSync(elsewhere);
  const seen: Array<{ what: string; text: string }> = [];
  const envStdout: string[] = [];
  const run = (args: string[], options: Parameters<typeof cli>[2] = {}, expect: number | null = 0): void => {
    const r = cli(sb, args, options);
    if (expect !== null) assert.equal(r.status, expect, `synaptic ${args.join(' ')}: ${r.stderr}`);
    const isEnv = args[0] === 'env' && !args.includes('--hook');
    if (isEnv) envStdout.push(r.stdout);
    else seen.push({ what: `stdout of synaptic ${args.join(' ')}`, text: r.stdout });
    seen.push({ what: `stderr of synaptic ${args.join(' ')}`, text: r.stderr });
  };

  // Store, inspect, scope and trust.
  run(['vault', 'set', '--i-am-human', 'DATABASE_URL'], { input: secrets.DATABASE_URL + '\n' });
  run(['vault', 'set', '--i-am-human', 'deploy.RegistryToken', '--for', sub], { input: secrets['deploy.RegistryToken'] });
  run(['vault', 'set', '--i-am-human', 'FAR_AWAY', '--for', elsewhere], { input: secrets.FAR_AWAY });
  run(['vault', 'set', '--i-am-human', 'GLOBAL_TOKEN', '--global'], { input: secrets.GLOBAL_TOKEN });
  run(['vault', 'set', '--i-am-human', 'EMPTY'], { input: '' }, 1);
  // The hidden prompt on a terminal: nothing typed is echoed.
  const tty = await cliOnTtySteps(sb, ['vault', 'set', 'TYPED_AT_PROMPT'], [
    ['Type yes to approve: ', 'yes\r'],
    ['Value for default.TYPED_AT_PROMPT: ', secrets.TYPED_AT_PROMPT + '\r'],
  ]);
  if (tty) {
    assert.equal(tty.status, 0, tty.screen);
    assert.match(tty.screen, /Stored default\.TYPED_AT_PROMPT/);
    seen.push({ what: 'terminal of synaptic vault set (prompt)', text: tty.screen });
    const envTty = await cliOnTty(sb, ['env', '--shell', 'bash'], 'never', '', sub);
    assert.match(envTty!.screen, /Cannot print secret values to a terminal/);
    seen.push({ what: 'terminal of synaptic env', text: envTty!.screen });
  }
  run(['vault', 'list']);
  run(['vault', 'list', '--json']);
  run(['vault', 'check']);
  run(['vault', 'hold', '--i-am-human', 'DATABASE_URL', '--for', sub]);
  run(['scope', 'status']);
  run(['scope', 'init', '--env', 'DATABASE_URL', '--env', 'deploy.RegistryToken', '--env', 'FAR_AWAY', '--env', 'TYPED_AT_PROMPT']);
  run(['scope', 'status', '--json'], { cwd: sub });
  run(['scope', 'trust', '--i-am-human']);
  run(['scope', 'status'], { cwd: sub });
  run(['scope', 'deny', '--name', 'DATABASE_URL']);
  run(['scope', 'trust', '--i-am-human', '--allow', 'DATABASE_URL']);
  // Use the secrets: the child reports names and its parent's argv, never values.
  run(['run', '--', 'sh', '-c', 'env | cut -d= -f1 | sort; tr "\\0" " " < /proc/$PPID/cmdline'], { cwd: sub });
  const names = seen.find((x) => x.what.startsWith('stdout of synaptic run -- sh'))!.text.split('\n');
  for (const n of ['DATABASE_URL', 'RegistryToken', ...(tty ? ['TYPED_AT_PROMPT'] : [])]) assert.ok(names.includes(n), `run passed ${n}`);
  assert.ok(!names.includes('FAR_AWAY'));
  run(['run', '--', 'sh', '-c', 'exit 3'], { cwd: sub }, 3);
  run(['run', '--', 'no-such-command-xyz'], { cwd: sub }, 127);
  for (const shell of ['bash', 'zsh', 'fish']) run(['env', '--shell', shell], { cwd: sub });
  run(['env', '--shell', 'fish', '--hook']);
  run(['env', '--shell', 'bash'], { cwd: sub, env: { SYNAPTIC_ENV_NAMES: 'DATABASE_URL,OLD' } });
  // Failure paths: a wrong key and a tampered vault.
  run(['run', '--', 'true'], { cwd: sub, env: { SYNAPTIC_VAULT_KEY: 'f'.repeat(64) } }, 1);
  const vaultFile = join(sb.data, 'vault.json');
  copyFileSync(vaultFile, join(sb.base, 'vault.bak'));
  const doc = JSON.parse(readFileSync(vaultFile, 'utf8'));
  for (const s of doc.secrets) s.tag = Buffer.alloc(16).toString('base64');
  writeFileSync(vaultFile, JSON.stringify(doc));
  run(['env', '--shell', 'bash'], { cwd: sub }, 1);
  run(['run', '--', 'true'], { cwd: sub }, 1);
  run(['vault', 'check'], {}, 1);
  copyFileSync(join(sb.base, 'vault.bak'), vaultFile);
  // Skills and settings.
  run(['settings', 'learn', 'on']);
  run(['settings']);
  run(['vault', 'rm', 'GLOBAL_TOKEN', '--global']);
  for (const c of ['vault', 'scope']) run([c, '--help']);

  // Every tool, through the provider the server serves.
  const provider = createVaultTools({ cwd: sb.project, env: { ...sb.env, SYNAPTIC_ENV_HOOK: 'bash', SYNAPTIC_ENV_NAMES: 'DATABASE_URL' } });
  const tools = new Map(provider.tools().map((t) => [t.name, t as ToolDefinition]));
  assert.deepEqual([...tools.keys()], ['vaultstatus', 'teach', 'revise']);
  const call = async (name: string, args: Record<string, unknown>): Promise<void> => {
    const tool = tools.get(name)!;
    try {
      seen.push({ what: `${name} response`, text: JSON.stringify(await tool.handler(tool.inputSchema.parse(args))) });
    } catch (err) {
      seen.push({ what: `${name} error`, text: String(err) });
    }
  };
  for (const path of [sb.project, sub, elsewhere, sb.home, undefined]) await call('vaultstatus', path ? { path } : {});
  await call('teach', { name: 'db-access', description: 'Reach the database', instructions: 'Use `synaptic run -- psql "$DATABASE_URL"`.', note: 'n', project: sb.project });
  await call('teach', { name: 'db-access', description: 'dup', instructions: 'x', note: 'n', project: sb.project });
  await call('revise', { name: 'db-access', instructions: 'Run psql through synaptic run.', note: 'simpler', project: sb.project });
  await call('revise', { name: 'missing-skill', instructions: 'x', note: 'n', project: sb.project });
  await provider.close?.();
  run(['skills', 'list']);
  run(['skills', 'show', 'db-access']);
  run(['skills', 'approve', 'db-access']);
  run(['skills', 'show', 'db-access', '--revision', 'r1']);
  run(['skills', 'reject', 'db-access']);
  run(['vault', 'rm', 'DATABASE_URL']);
  run(['settings', 'learn', 'off']);

  // The exports are the one place values are meant to go (stdout of `synaptic env`, for eval).
  assert.ok(envStdout[0]!.includes(secrets.DATABASE_URL.replace(/'/g, `'\\''`)));
  const files = [...filesUnder(sb.data), ...filesUnder(sb.home), ...filesUnder(sb.project)];
  for (const name of ['vault.json', 'vault.key', 'scopes.json', 'settings.json', 'meta.json', 'instructions.md', '.synaptic.yaml']) {
    assert.ok(files.some((f) => f.endsWith('/' + name)), `${name} is among the scanned files`);
  }
  for (const f of files) seen.push({ what: `file ${f}`, text: readFileSync(f).toString('latin1') + readFileSync(f, 'utf8') });
  assert.ok(seen.length > 80, `scanned ${seen.length} outputs`);
  for (const [name, value] of Object.entries(secrets)) {
    for (const form of forms(value)) {
      for (const { what, text } of seen) assert.ok(!text.includes(form), `the value of ${name} appears in ${what}`);
    }
  }
});
