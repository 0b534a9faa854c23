import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectCredential } from '../../src/memory/credentials.ts';

// Built at run time so the file itself holds no token-shaped literal.
const rep = (s: string, n: number) => s.repeat(n);
const SECRETS: Array<[string, string]> = [
  ['private key', `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${rep('x', 40)}\n-----END RSA PRIVATE KEY-----`],
  ['openssh key', `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----`],
  ['aws', `aws key ${'AKIA'}${'Q3EXAMPLE7ZXCVBN'}`],
  ['github', `token ${'ghp_'}${rep('aB3', 12)}`],
  ['slack', `${'xoxb'}-1234567890-abcdefghij`],
  ['stripe', `${'sk_live_'}${rep('4eC39HqLyjWDarjtT1zdp7dc', 1)}`],
  ['jwt', `Bearer ${'eyJ'}hbGciOiJIUzI1NiJ9.${'eyJ'}zdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U`],
  ['url password', 'Connect with postgres://admin:Tr0ub4dor3x@db.internal:5432/app'],
  ['env assignment', `STRIPE_SECRET_KEY=${'q8Zr2LmX0vN4tB7yK1pW9sD3fH6jG5cE'}`],
  ['json assignment', `{"api_key": "${'Zk9qW2xR7tY4uI1oP6aS3dF8gH5jK0lM'}"}`],
  ['password assignment', 'DB_PASSWORD = "hunter2!Xy9"'],
  ['openai', `${'sk-'}proj-${rep('Ab1Cd2Ef3Gh4', 4)}`],
];

const CLEAN = [
  'Use small focused modules.',
  'The API key lives in the vault as STRIPE_SECRET_KEY; run commands with synaptic run.',
  'API_KEY=${STRIPE_KEY} is read from the environment.',
  'token = process.env.GITHUB_TOKEN',
  'password: <your-password>',
  'The primary key is user_id, and the sort key is created_at.',
  'Clone from https://github.com/example/project.git and run npm test.',
  'postgres://user:password@localhost/db is the local placeholder URL.',
  'Session tokens expire after 30 minutes; refresh_token rotation is on.',
  'commit 3f9a1c2 fixed the cache key collision',
  'MAX_TOKENS = 4096',
];

for (const [name, text] of SECRETS) {
  test(`detectCredential() flags ${name}`, () => {
    assert.notEqual(detectCredential(text), null, text);
  });
}

test('detectCredential() leaves ordinary engineering notes alone', () => {
  for (const text of CLEAN) assert.equal(detectCredential(text), null, text);
});
