import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import {
  denyScope,
  initScope,
  parseRef,
  resolveFolder,
  STATUS_NOTE,
  trustScope,
  UNAVAILABLE_LIMIT,
  VaultStore,
  type VaultStatus,
} from '../../src/vault/index.ts';
import { sandbox, type Sandbox } from './helpers.ts';

let sb: Sandbox;
let sub: string;
beforeEach(() => {
  sb = sandbox();
  sub = join(sb.project, 'sub');
});
afterEach(() => sb.cleanup());

const KEYS = ['path', 'backend', 'available', 'unavailable', 'elsewhere', 'ambient', 'shell', 'scopes', 'warnings', 'note'];
const SCOPE_KEYS = ['path', 'scope', 'trusted', 'changed', 'env', 'denied', 'error'];

function status(folder: string, env: Record<string, string> = {}): VaultStatus {
  const s = resolveFolder(folder, { ...sb.env, ...env }).status;
  assert.deepEqual(Object.keys(s), KEYS);
  for (const sc of s.scopes) assert.deepEqual(Object.keys(sc), SCOPE_KEYS);
  assert.equal(s.backend, 'encrypted');
  assert.equal(s.note, STATUS_NOTE);
  return s;
}

function put(ref: string, folders: string[]): void {
  new VaultStore(sb.env).set(parseRef(ref), Buffer.from(`value-of-${ref}`), folders);
}

test('vaultstatus of an empty vault with no scope file: nothing, no warning', () => {
  const s = status(sb.project);
  assert.deepEqual({ ...s, note: '' }, {
    path: sb.project, backend: 'encrypted', available: [], unavailable: [], elsewhere: 0, ambient: 'off', shell: 'bash',
    scopes: [], warnings: [], note: '',
  });
});

test('vaultstatus with secrets but no scope file counts them elsewhere and says to run scope init', () => {
  put('DATABASE_URL', [sb.project]);
  put('other.Token', ['/nowhere']);
  const s = status(sb.project);
  assert.deepEqual([s.available, s.unavailable, s.elsewhere], [[], [], 2]);
  assert.equal(s.warnings.length, 1);
  assert.match(s.warnings[0]!, /vault holds 2: run `synaptic scope init` here.*env:.*synaptic scope trust/);
  assert.ok(!JSON.stringify(s).includes('Token') && !JSON.stringify(s).includes('DATABASE_URL'), 'no stored name leaks');
});

test('scope trust lifecycle: init (untrusted) -> trust -> edit (changed) -> trust -> deny', () => {
  put('DATABASE_URL', [sb.project]);
  put('deploy.RegistryToken', [sub]);
  put('other.Secret', ['/elsewhere']);
  const file = initScope(sb.project, ['DATABASE_URL', 'deploy.RegistryToken']);

  let s = status(sub);
  assert.deepEqual(s.scopes, [{ path: file, scope: 'project', trusted: false, changed: false, env: ['DATABASE_URL', 'RegistryToken'], denied: [], error: null }]);
  assert.deepEqual([s.available, s.unavailable, s.elsewhere], [[], ['default.DATABASE_URL', 'deploy.RegistryToken'], 1]);
  assert.match(s.warnings.join('\n'), /scope trust/);

  assert.deepEqual(trustScope(file, [], sb.env).granted, ['DATABASE_URL', 'RegistryToken']);
  s = status(sub);
  assert.deepEqual([s.available, s.unavailable, s.elsewhere, s.warnings], [['DATABASE_URL', 'RegistryToken'], [], 1, []]);
  assert.equal(s.scopes[0]!.trusted, true);
  // RegistryToken is held only for sub/: from the project root it is named but unavailable.
  s = status(sb.project);
  assert.deepEqual([s.available, s.unavailable, s.elsewhere], [['DATABASE_URL'], ['deploy.RegistryToken'], 1]);

  appendFileSync(file, '# edited\n');
  s = status(sub);
  assert.deepEqual([s.scopes[0]!.trusted, s.scopes[0]!.changed, s.available], [false, true, []]);
  assert.ok(s.warnings.some((w) => w.includes('changed since it was trusted')));

  trustScope(file, [], sb.env);
  assert.deepEqual([status(sub).scopes[0]!.changed, status(sub).available.length], [false, 2]);

  assert.deepEqual(denyScope(file, ['deploy.RegistryToken'], sb.env), ['RegistryToken']);
  s = status(sub);
  assert.deepEqual([s.available, s.scopes[0]!.denied, s.unavailable], [['DATABASE_URL'], ['RegistryToken'], []]);
  trustScope(file, [], sb.env); // a re-trust keeps the per-name denial
  assert.deepEqual(status(sub).available, ['DATABASE_URL']);
  trustScope(file, ['RegistryToken'], sb.env);
  assert.deepEqual(status(sub).available, ['DATABASE_URL', 'RegistryToken']);

  denyScope(file, [], sb.env);
  s = status(sub);
  assert.deepEqual([s.available, s.scopes[0]!.trusted, s.scopes[0]!.denied], [[], false, ['DATABASE_URL', 'RegistryToken']]);
});

test('a deeper scope file overrides a variable and .synapse.yaml is read too', () => {
  put('A', ['*']);
  put('inner.A', ['*']);
  const outer = initScope(sb.project, ['A']);
  writeFileSync(join(sub, '.synapse.yaml'), 'scope: inner\nenv:\n  A: inner.A\n');
  trustScope(outer, [], sb.env);
  let s = status(sub);
  assert.deepEqual(s.scopes.map((x) => [x.path, x.scope, x.trusted]), [[outer, 'project', true], [join(sub, '.synapse.yaml'), 'inner', false]]);
  assert.deepEqual([s.available, s.unavailable], [[], ['inner.A']]);
  trustScope(join(sub, '.synapse.yaml'), [], sb.env);
  const { grants } = resolveFolder(sub, sb.env);
  assert.deepEqual(grants, [{ variable: 'A', ref: { vault: 'inner', name: 'A' } }]);
  s = status(sub);
  assert.deepEqual([s.available, s.elsewhere], [['A'], 1]);
});

test('a scope file with a syntax error reports it and grants nothing', () => {
  put('A', [sb.project]);
  writeFileSync(join(sb.project, '.synaptic.yaml'), 'env:\n  - A\nbogus: 1\n');
  const s = status(sb.project);
  assert.equal(s.scopes[0]!.error, `Cannot parse ${join(sb.project, '.synaptic.yaml')}: line 3: unknown key "bogus" (a scope file has env and scope)`);
  assert.deepEqual([s.scopes[0]!.trusted, s.available], [false, []]);
  assert.throws(() => trustScope(join(sb.project, '.synaptic.yaml'), [], sb.env), /line 3/);
});

test('unavailable is truncated and the rest joins elsewhere', () => {
  const names = Array.from({ length: UNAVAILABLE_LIMIT + 5 }, (_, i) => `S${String(i).padStart(2, '0')}`);
  mkdirSync(join(sb.base, 'x'));
  put('S00', [join(sb.base, 'x')]);
  initScope(sb.project, names);
  const s = status(sb.project);
  assert.equal(s.unavailable.length, UNAVAILABLE_LIMIT);
  assert.equal(s.elsewhere, 5);
  assert.ok(s.warnings.some((w) => w.includes('5 more unavailable names')));
});

test('ambient is off without the hook, ready when it exported this set, stale otherwise', () => {
  put('A', [sb.project]);
  trustScope(initScope(sb.project, ['A']), [], sb.env);
  assert.deepEqual([status(sb.project).ambient, status(sb.project, { SHELL: '/usr/bin/fish' }).shell], ['off', 'fish']);
  assert.equal(status(sb.project, { SHELL: '/bin/tcsh' }).shell, null);
  const ready = status(sb.project, { SYNAPTIC_ENV_HOOK: 'zsh', SYNAPTIC_ENV_NAMES: 'A', SYNAPTIC_ENV_DIR: sb.project });
  assert.deepEqual([ready.ambient, ready.shell], ['ready', 'zsh']);
  assert.equal(status(sb.project, { SYNAPTIC_ENV_HOOK: 'zsh', SYNAPTIC_ENV_NAMES: '' }).ambient, 'stale');
});

test('vaultstatus never names a secret held for another folder', () => {
  mkdirSync(join(sb.base, 'other'));
  put('SECRET_OF_OTHER_PROJECT', [join(sb.base, 'other')]);
  put('A', [sb.project]);
  trustScope(initScope(sb.project, ['A']), [], sb.env);
  const s = status(sb.project);
  assert.deepEqual([s.available, s.elsewhere], [['A'], 1]);
  assert.ok(!JSON.stringify(s).includes('SECRET_OF_OTHER_PROJECT'));
});
