import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { keyFilePath, open, parseRef, seal, VaultAuthError, VaultError, VaultStore } from '../../src/vault/index.ts';
import { sandbox, type Sandbox } from './helpers.ts';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.cleanup());

test('seal() and open() round-trip any bytes', () => {
  const key = randomBytes(32);
  for (const text of ['', 'a', 'päss wörd 🔑', 'x'.repeat(70_000)]) {
    const s = seal(key, Buffer.from(text), 'aad');
    assert.equal(open(key, s, 'aad', 't').toString(), text);
    // (a 1-byte ciphertext equals a 1-byte text with chance 1/256: checked only where that chance is negligible)
    assert.ok(text.length < 8 || !Buffer.from(s.data, 'base64').toString().includes(text));
  }
});

test('open() detects a changed byte, tag, AAD or key with VaultAuthError', () => {
  const key = randomBytes(32);
  const s = seal(key, Buffer.from('hunter2-secret'), 'default.A');
  const data = Buffer.from(s.data, 'base64');
  data[3]! ^= 1;
  assert.throws(() => open(key, { ...s, data: data.toString('base64') }, 'default.A', 'secret A'), VaultAuthError);
  const tag = Buffer.from(s.tag, 'base64');
  tag[0]! ^= 0x80;
  assert.throws(() => open(key, { ...s, tag: tag.toString('base64') }, 'default.A', 'secret A'), VaultAuthError);
  assert.throws(() => open(key, s, 'default.B', 'secret A'), /Cannot decrypt secret A: authentication failed/);
  assert.throws(() => open(randomBytes(32), s, 'default.A', 'secret A'), VaultAuthError);
});

test('VaultStore.set() creates a 0600 key file in a 0700 data dir and round-trips values', () => {
  const store = new VaultStore(sb.env);
  store.set(parseRef('DATABASE_URL'), Buffer.from('postgres://u:pw@h/db'), [sb.project]);
  store.set(parseRef('deploy.Token'), Buffer.from('tok-123'), ['*']);
  assert.equal(statSync(keyFilePath(sb.env)).mode & 0o777, 0o600);
  assert.equal(statSync(sb.data).mode & 0o777, 0o700);
  assert.equal(statSync(store.file).mode & 0o777, 0o600);
  const values = new VaultStore(sb.env).reveal([parseRef('DATABASE_URL'), parseRef('deploy.Token')]);
  assert.equal(values.get('default.DATABASE_URL'), 'postgres://u:pw@h/db');
  assert.equal(values.get('deploy.Token'), 'tok-123');
  const raw = readFileSync(store.file, 'utf8');
  assert.ok(!raw.includes('postgres://') && !raw.includes('tok-123'));
  assert.deepEqual(store.list().map((s) => [s.ref, s.folders]), [['default.DATABASE_URL', [sb.project]], ['deploy.Token', ['*']]]);
});

test('VaultStore.reveal() names a tampered vault file with VaultAuthError', () => {
  const store = new VaultStore(sb.env);
  store.set(parseRef('A'), Buffer.from('value-a'), [sb.project]);
  const doc = JSON.parse(readFileSync(store.file, 'utf8'));
  const data = Buffer.from(doc.secrets[0].data, 'base64');
  data[0]! ^= 0xff;
  doc.secrets[0].data = data.toString('base64');
  writeFileSync(store.file, JSON.stringify(doc));
  assert.throws(() => store.reveal([parseRef('A')]), (e: Error) => e instanceof VaultAuthError && /Cannot decrypt secret default\.A/.test(e.message));
});

test('VaultStore binds folders into the tag: widening them in the file breaks decryption', () => {
  const store = new VaultStore(sb.env);
  store.set(parseRef('A'), Buffer.from('value-a'), [sb.project]);
  const doc = JSON.parse(readFileSync(store.file, 'utf8'));
  doc.secrets[0].folders = ['*'];
  writeFileSync(store.file, JSON.stringify(doc));
  assert.throws(() => store.reveal([parseRef('A')]), VaultAuthError);
});

test('VaultStore refuses a wrong key before decrypting anything', () => {
  const hex = randomBytes(32).toString('hex');
  new VaultStore({ ...sb.env, SYNAPTIC_VAULT_KEY: hex }).set(parseRef('A'), Buffer.from('v'), [sb.project]);
  const other = new VaultStore({ ...sb.env, SYNAPTIC_VAULT_KEY: randomBytes(32).toString('hex') });
  assert.throws(() => other.reveal([parseRef('A')]), (e: Error) => e instanceof VaultError && /key from SYNAPTIC_VAULT_KEY is not the key/.test(e.message));
  assert.throws(() => other.set(parseRef('B'), Buffer.from('w'), [sb.project]), /is not the key/);
  // Without the env key the (never created) key file is missing: a clear error, not a new key.
  assert.throws(() => new VaultStore(sb.env).reveal([parseRef('A')]), /key file .*vault\.key is missing/);
});

test('SYNAPTIC_VAULT_KEY accepts hex, base64 and passphrases, and rejects short ones', () => {
  for (const key of [randomBytes(32).toString('hex'), randomBytes(32).toString('base64'), 'correct horse battery staple']) {
    const env = { ...sb.env, SYNAPTIC_VAULT_KEY: key, SYNAPTIC_DATA_DIR: join(sb.base, `d-${key.length}`) };
    new VaultStore(env).set(parseRef('A'), Buffer.from('value'), [sb.project]);
    assert.equal(new VaultStore(env).reveal([parseRef('A')]).get('default.A'), 'value');
  }
  assert.throws(() => new VaultStore({ ...sb.env, SYNAPTIC_VAULT_KEY: 'short' }).set(parseRef('A'), Buffer.from('v'), ['/']), /at least 12 characters/);
});

test('a key file other users can read is refused', () => {
  new VaultStore(sb.env).set(parseRef('A'), Buffer.from('v'), [sb.project]);
  chmodSync(keyFilePath(sb.env), 0o644);
  assert.throws(() => new VaultStore(sb.env).reveal([parseRef('A')]), /other users can access it \(mode 644\); run chmod 600/);
});

test('VaultStore.remove() and hold() change folders and keep the value', () => {
  const store = new VaultStore(sb.env);
  const sub = join(sb.project, 'sub');
  store.set(parseRef('A'), Buffer.from('keep-me'), [sb.project]);
  assert.deepEqual(store.hold(parseRef('A'), [sub])?.folders, [sb.project, sub].sort());
  assert.equal(store.remove(parseRef('A'), [sb.project]), true);
  assert.throws(() => store.remove(parseRef('A'), [sb.project]), /is held only for/);
  assert.deepEqual(store.list()[0]!.folders, [sub]);
  assert.equal(store.reveal([parseRef('A')]).get('default.A'), 'keep-me');
  assert.equal(store.remove(parseRef('A')), true);
  assert.equal(store.remove(parseRef('A')), false);
  assert.deepEqual(store.list(), []);
});

test('parseRef() accepts NAME and vault.NAME only', () => {
  assert.deepEqual(parseRef('X_1'), { vault: 'default', name: 'X_1' });
  assert.deepEqual(parseRef('deploy.RegistryToken'), { vault: 'deploy', name: 'RegistryToken' });
  for (const bad of ['', '1X', 'a.b.c', 'a b', '.X', 'x.']) assert.throws(() => parseRef(bad), TypeError);
});

test('VaultStore.set() refuses empty values and no folders', () => {
  const store = new VaultStore(sb.env);
  assert.throws(() => store.set(parseRef('A'), Buffer.alloc(0), [sb.project]), /value is empty/);
  assert.throws(() => store.set(parseRef('A'), Buffer.from('v'), []), /at least one folder/);
});

test('a lost key file is reported, never silently replaced by a new key', () => {
  const store = new VaultStore(sb.env);
  store.set(parseRef('A'), Buffer.from('v'), [sb.project]);
  rmSync(keyFilePath(sb.env));
  assert.throws(() => store.set(parseRef('B'), Buffer.from('w'), [sb.project]), /key file .*vault\.key is missing \(the stored values cannot be recovered/);
  assert.equal(existsSync(keyFilePath(sb.env)), false);
});
