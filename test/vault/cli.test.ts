import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { cli, sandbox, type Sandbox } from './helpers.ts';

// One sandbox for the file: each test builds on the state the previous one left, as a user would.
let sb: Sandbox;
let sub: string;
let elsewhere: string;
before(() => {
  sb = sandbox();
  sub = join(sb.project, 'sub');
  elsewhere = join(sb.base, 'elsewhere');
  mkdirSync(elsewhere);
});
after(() => sb.cleanup());

const TRICKY = `it's a "test" $HOME \`id\` \\ back\\slash\nsecond line ünï 🔑 !x`;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function ok(args: string[], options: Parameters<typeof cli>[2] = {}): string {
  const r = cli(sb, args, options);
  assert.equal(r.status, 0, `synaptic ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Runs a node one-liner through `synaptic run` that reports which names it got and their hashes. */
function runReport(cwd: string, names: string[]): Record<string, string | null> {
  const script = `const c=require('crypto');const o={};for(const n of ${JSON.stringify(names)})o[n]=process.env[n]===undefined?null:c.createHash('sha256').update(process.env[n]).digest('hex');console.log(JSON.stringify(o))`;
  return JSON.parse(ok(['run', '--', process.execPath, '-e', script], { cwd }));
}

test('vault set reads stdin, list shows names and folders, never values', () => {
  assert.match(ok(['vault', 'set', '--i-am-human', 'DATABASE_URL'], { input: 'postgres://app:pw@db/app\n' }), /Stored default\.DATABASE_URL, held for .*proj/);
  ok(['vault', 'set', '--i-am-human', 'deploy.RegistryToken', '--for', sub], { input: TRICKY });
  ok(['vault', 'set', '--i-am-human', 'FAR_AWAY', '--for', elsewhere], { input: 'far-away-value' });
  const list = ok(['vault', 'list']);
  assert.match(list, /default\.DATABASE_URL +.*\/proj\n/);
  assert.match(list, /deploy\.RegistryToken +.*\/proj\/sub\n/);
  assert.ok(!list.includes('postgres://') && !list.includes('far-away-value'));
  const json = JSON.parse(ok(['vault', 'list', '--json']));
  assert.deepEqual(json.map((e: { name: string }) => e.name), ['default.DATABASE_URL', 'default.FAR_AWAY', 'deploy.RegistryToken']);
  assert.equal(ok(['vault', 'check']), 'The vault key opens all 3 secrets\n');
  const bad = cli(sb, ['vault', 'set', 'X', 'value-in-argv']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /never argv/);
});

test('scope init, status, trust through the CLI; run passes only approved secrets', () => {
  const all = ['DATABASE_URL', 'RegistryToken', 'FAR_AWAY'];
  ok(['scope', 'init', '--env', 'DATABASE_URL', '--env', 'deploy.RegistryToken', '--env', 'FAR_AWAY']);
  assert.deepEqual(runReport(sub, all), { DATABASE_URL: null, RegistryToken: null, FAR_AWAY: null }, 'untrusted: nothing');
  const st = JSON.parse(ok(['scope', 'status', '--json'], { cwd: sub }));
  assert.deepEqual([st.available, st.unavailable, st.scopes[0].trusted], [[], ['default.DATABASE_URL', 'default.FAR_AWAY', 'deploy.RegistryToken'], false]);
  assert.match(ok(['scope', 'trust', '--i-am-human']), /Trusted .*\.synaptic\.yaml: DATABASE_URL, RegistryToken, FAR_AWAY/);
  // FAR_AWAY is named but held for another folder; RegistryToken only for sub/.
  assert.deepEqual(runReport(sub, all), { DATABASE_URL: sha('postgres://app:pw@db/app'), RegistryToken: sha(TRICKY), FAR_AWAY: null });
  assert.deepEqual(runReport(sb.project, all), { DATABASE_URL: sha('postgres://app:pw@db/app'), RegistryToken: null, FAR_AWAY: null });
  const r = cli(sb, ['run', '--', 'sh', '-c', 'exit 7'], { cwd: sub });
  assert.equal(r.status, 7);
  assert.match(r.stderr, /not available in .*: default\.FAR_AWAY/);
  assert.equal(cli(sb, ['run', '--', 'definitely-not-a-command-xyz']).status, 127);
});

test('an edited scope file is untrusted (changed) until trusted again; deny works per name and per file', () => {
  const file = join(sb.project, '.synaptic.yaml');
  appendFileSync(file, '# edited\n');
  let st = JSON.parse(ok(['scope', 'status', '--json'], { cwd: sub }));
  assert.deepEqual([st.scopes[0].trusted, st.scopes[0].changed, st.available], [false, true, []]);
  assert.deepEqual(runReport(sub, ['DATABASE_URL']), { DATABASE_URL: null });
  ok(['scope', 'trust', '--i-am-human', file]);
  assert.match(ok(['scope', 'deny', '--name', 'deploy.RegistryToken']), /Denied RegistryToken in/);
  st = JSON.parse(ok(['scope', 'status', '--json'], { cwd: sub }));
  assert.deepEqual([st.available, st.scopes[0].denied], [['DATABASE_URL'], ['RegistryToken']]);
  ok(['scope', 'trust', '--i-am-human', '--allow', 'RegistryToken']);
  ok(['scope', 'deny']);
  st = JSON.parse(ok(['scope', 'status', '--json'], { cwd: sub }));
  assert.deepEqual([st.available, st.scopes[0].trusted], [[], false]);
  assert.match(ok(['scope', 'status'], { cwd: sub }), /Available  \(none\)/);
  ok(['scope', 'trust', '--i-am-human']);
  const unknown = cli(sb, ['scope', 'deny', '--name', 'NOPE']);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /Cannot find "NOPE" in .*names DATABASE_URL, RegistryToken, FAR_AWAY/);
});

test('env prints exports that bash evaluates back to the exact values, and unsets what no longer applies', () => {
  const out = ok(['env', '--shell', 'bash'], { cwd: sub });
  const check = spawnSync('bash', ['-c', `eval "$1"; printf '%s\\0%s\\0%s\\0%s' "$DATABASE_URL" "$RegistryToken" "$SYNAPTIC_ENV_HOOK" "$SYNAPTIC_ENV_NAMES"`, 'x', out], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
  assert.deepEqual(check.stdout.split('\0'), ['postgres://app:pw@db/app', TRICKY, 'bash', 'DATABASE_URL,RegistryToken']);
  // Leaving sub/ for the project root: RegistryToken is not held there, so the hook unsets it.
  const up = ok(['env', '--shell', 'zsh'], { cwd: sb.project, env: { SYNAPTIC_ENV_NAMES: 'DATABASE_URL,RegistryToken', SYNAPTIC_ENV_HOOK: 'zsh' } });
  assert.match(up, /^unset RegistryToken$/m);
  assert.match(up, /^export SYNAPTIC_ENV_NAMES='DATABASE_URL'$/m);
  const zshLike = spawnSync('bash', ['-c', `RegistryToken=stale; eval "$1"; printf '%s|%s' "\${RegistryToken-unset}" "$DATABASE_URL"`, 'x', up], { encoding: 'utf8' });
  assert.equal(zshLike.stdout, 'unset|postgres://app:pw@db/app');
});

/** Reads fish single-quoted words the way fish does: only \\ and \' are escapes inside them. */
function fishSetValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^set -gx (\w+) '((?:[^'\\]|\\.)*)'$/gms;
  for (const m of text.matchAll(re)) out[m[1]!] = m[2]!.replace(/\\(['\\])/g, '$1');
  return out;
}

test('env --shell fish quotes for fish; --hook prints no values; unknown shells are refused', () => {
  const fishOut = ok(['env', '--shell', 'fish'], { cwd: sub });
  const vals = fishSetValues(fishOut);
  assert.deepEqual([vals.DATABASE_URL, vals.RegistryToken, vals.SYNAPTIC_ENV_HOOK], ['postgres://app:pw@db/app', TRICKY, 'fish']);
  const which = spawnSync('sh', ['-c', 'command -v fish'], { encoding: 'utf8' });
  if (which.status === 0) {
    const real = spawnSync('fish', ['-c', `${fishOut}\nprintf '%s' "$RegistryToken"`], { encoding: 'utf8' });
    assert.equal(real.stdout, TRICKY);
  }
  for (const shell of ['bash', 'zsh', 'fish']) {
    const hook = ok(['env', '--shell', shell, '--hook']);
    assert.match(hook, /synaptic env --shell/);
    assert.ok(!hook.includes('postgres://'));
  }
  const bad = cli(sb, ['env', '--shell', 'tcsh']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--shell must be one of bash, zsh, fish/);
});

test('vault rm removes a folder hold or the whole secret', () => {
  ok(['vault', 'hold', '--i-am-human', 'FAR_AWAY', '--for', sb.project]);
  assert.deepEqual(runReport(sb.project, ['FAR_AWAY']), { FAR_AWAY: sha('far-away-value') });
  assert.match(ok(['vault', 'rm', 'FAR_AWAY', '--for', sb.project]), /Removed default\.FAR_AWAY from/);
  assert.deepEqual(runReport(sb.project, ['FAR_AWAY']), { FAR_AWAY: null });
  ok(['vault', 'rm', 'FAR_AWAY']);
  assert.ok(!ok(['vault', 'list']).includes('FAR_AWAY'));
  const missing = cli(sb, ['vault', 'rm', 'FAR_AWAY']);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /holds no such secret/);
});

test('a wrong SYNAPTIC_VAULT_KEY is named as such by run and env', () => {
  const r = cli(sb, ['run', '--', 'true'], { cwd: sub, env: { SYNAPTIC_VAULT_KEY: 'a'.repeat(64) } });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /Cannot open the vault: the key from SYNAPTIC_VAULT_KEY is not the key .*vault\.json was written with/);
  assert.ok(readFileSync(join(sb.data, 'vault.key'), 'utf8').trim().length === 64);
});
