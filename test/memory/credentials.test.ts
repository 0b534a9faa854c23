import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectCredential, findCredential, normalizeForScan, refuseCredentials } from '../../src/memory/credentials.ts';
import { CredentialRefusedError } from '../../src/memory/errors.ts';
import { isPrivateKeyDer, looksLikeAwsSecret } from '../../src/memory/key-material.ts';
import { fieldSecret, NEGATIVES, POSITIVES } from './credential-corpus.ts';

test('the corpus holds at least 60 credential shapes and 20 ordinary notes', () => {
  assert.ok(POSITIVES.length >= 60, `${POSITIVES.length} positives`);
  assert.ok(NEGATIVES.length >= 20, `${NEGATIVES.length} negatives`);
  assert.equal(new Set(POSITIVES.map((s) => s.name)).size, POSITIVES.length, 'shape names are unique');
});

test('every credential shape of the corpus is detected, with its kind', () => {
  const missed: string[] = [];
  for (const shape of POSITIVES) {
    const text = shape.field ? fieldSecret(shape) : shape.text;
    const finding = detectCredential(text);
    if (!finding) missed.push(`${shape.name}: not detected`);
    else if (!shape.kind.test(finding.kind)) missed.push(`${shape.name}: kind "${finding.kind}" does not match ${shape.kind}`);
  }
  assert.deepEqual(missed, []);
});

test('no ordinary engineering note of the corpus is taken for a credential', () => {
  const flagged = NEGATIVES.map((text) => [text, detectCredential(text)?.kind] as const).filter(([, kind]) => kind !== undefined);
  assert.deepEqual(flagged, []);
});

test('normalizeForScan() removes invisible characters and folds full-width forms, and leaves ASCII as it is', () => {
  assert.equal(normalizeForScan('gh\u200bp_\u200dab\u00adc\u2060d\ufeff'), 'ghp_abcd');
  assert.equal(normalizeForScan('\u202eAKIA\u202c'), 'AKIA');
  assert.equal(normalizeForScan('ＡＫＩＡ＿－'), 'AKIA_-');
  const ascii = 'plain ascii text = 1';
  assert.equal(normalizeForScan(ascii), ascii);
});

test('a DER private key is told apart from certificates and public keys', () => {
  const der = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
  assert.equal(isPrivateKeyDer(der('308204a40201000282010100')), true, 'PKCS#1 RSA');
  assert.equal(isPrivateKeyDer(der('308204be020100300d06092a')), true, 'PKCS#8');
  assert.equal(isPrivateKeyDer(der('30770201010420')), true, 'SEC1 EC');
  assert.equal(isPrivateKeyDer(der('3082035d30820245a0030201')), false, 'certificate');
  assert.equal(isPrivateKeyDer(der('30820122300d06092a864886')), false, 'SubjectPublicKeyInfo');
  assert.equal(isPrivateKeyDer(der('3082010a0282010100')), false, 'PKCS#1 public key');
});

test('a bare 40-character AWS secret is told apart from hashes, identifiers, paths and encoded text', () => {
  const secret = Buffer.from(Array.from({ length: 30 }, (_, i) => (i * 97 + 13) % 256)).toString('base64');
  assert.equal(secret.length, 40);
  assert.equal(looksLikeAwsSecret(secret), true, secret);
  for (const clean of [
    '3f9a1c2e4b5d6f708192a3b4c5d6e7f809112233',
    'getUserAccountSettingsFromRemoteCache42x',
    'src/components/UserSettings/AccountPanel',
    'HTTPServerRequestHandlerFactoryV2Builder',
    Buffer.from('harmless text of thirty bytes.').toString('base64'),
  ]) {
    assert.equal(clean.length, 40, clean);
    assert.equal(looksLikeAwsSecret(clean), false, clean);
  }
});

test('findCredential() scans every field and names the one holding the secret', () => {
  const token = POSITIVES.find((s) => s.name === 'GitHub classic token')!.text;
  assert.equal(findCredential({ content: 'clean', source: undefined, project: null }), null);
  assert.deepEqual(findCredential({ content: 'clean', source: 'user', project: `/home/dev/${token.split(' ')[1]}` }), { field: 'project', kind: 'GitHub token' });
});

test('refuseCredentials() says what, where and that nothing was stored, and never echoes the value', () => {
  const shape = POSITIVES.find((s) => s.name === 'redis URL with password and no user')!;
  assert.throws(
    () => refuseCredentials('remember', { content: shape.text }),
    (err: Error) =>
      err instanceof CredentialRefusedError &&
      err.kind === 'password in a URL' &&
      /^Cannot remember: the content field holds what looks like a credential \(password in a URL\), so nothing was stored; memories never hold secrets/.test(err.message) &&
      /vault/.test(err.message) &&
      !err.message.includes('s3cretPassw0rd'),
  );
  assert.throws(() => refuseCredentials('teach the skill', { instructions: 'run sshpass -p Zq9xLm2w ssh host' }, 'skills'), /the instructions field .*command-line password \(sshpass -p\).*skills never hold secrets/);
  assert.doesNotThrow(() => refuseCredentials('remember', { content: NEGATIVES[1]!, source: 'agent' }));
});

// A remember call runs the scan on the server's only thread: no body may stall it. Before the bounded
// patterns, `a.` repeated took ~1 s at 16 KB and grew with the square of the length (~16 s at 64 KB).
test('a scan stays linear on adversarial bodies (64 KB each, well under a second)', () => {
  const size = 64 * 1024;
  const units = ['a.', 'a-', 'a', 'key=a ', 'curl ', ' -p x', 'a://b:', 'token=', 'Authorization: Basic ', 'bearer ', 'QUJD', 'a\u200b', 'ａ．'];
  for (const unit of units) {
    const text = unit.repeat(Math.floor(size / unit.length));
    const start = performance.now();
    detectCredential(text);
    const ms = performance.now() - start;
    assert.ok(ms < 1500, `"${unit}" x ${text.length}: ${ms.toFixed(0)} ms`);
  }
});
