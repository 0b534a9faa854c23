import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseScopeFile, ScopeFileError, scopeFileTemplate } from '../../src/vault/index.ts';

const parse = (text: string) => parseScopeFile(text, '/p/.synaptic.yaml');
const vars = (text: string) => parse(text).env.map((e) => `${e.variable}=${e.ref.vault}.${e.ref.name}`);

test('parseScopeFile() reads list, mapping and flow forms', () => {
  assert.deepEqual(vars('env:\n  - DATABASE_URL\n  - deploy.RegistryToken  # comment\n'), ['DATABASE_URL=default.DATABASE_URL', 'RegistryToken=deploy.RegistryToken']);
  assert.deepEqual(vars('# top\nscope: web app\nenv:\n    REGISTRY_TOKEN: deploy.RegistryToken\n    "DB": \'DATABASE_URL\'\n'), ['REGISTRY_TOKEN=deploy.RegistryToken', 'DB=default.DATABASE_URL']);
  assert.deepEqual(vars('env: [A, "b.C"]'), ['A=default.A', 'C=b.C']);
  assert.deepEqual(vars('---\nenv:\n'), []);
  assert.deepEqual(vars('env: []\n'), []);
  assert.equal(parse('scope: web app\nenv: []').scope, 'web app');
});

test('parseScopeFile() accepts the template scope init writes', () => {
  assert.deepEqual(vars(scopeFileTemplate([])), []);
  assert.deepEqual(vars(scopeFileTemplate(['A', 'v.B'])), ['A=default.A', 'B=v.B']);
});

test('parseScopeFile() names the line of each error', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['env:\n  - A\nfoo: 1\n', 3, /unknown key "foo"/],
    ['env:\n\t- A\n', 2, /tabs/],
    ['env:\n  - A\n  - A\n', 3, /already named on line 2/],
    ['env:\n  - A\n  B: c.D\n', 3, /cannot mix/],
    ['env:\n  - A\n    - B\n', 3, /inconsistent indentation/],
    ['env:\n  - 1bad\n', 2, /not a secret name/],
    ['env:\n  - &anchor A\n', 2, /YAML syntax/],
    ['env: A\n', 1, /env must be a list/],
    ['env:\n  - "A\n', 2, /unterminated/],
    ['  - A\n', 1, /unexpected indentation/],
    ['env: []\nenv: []\n', 2, /appears twice/],
    ['env:\n  X:\n', 2, /names no secret/],
    ['scope: [x]\n', 1, /YAML syntax|scope label/],
  ];
  for (const [text, line, re] of cases) {
    assert.throws(
      () => parse(text),
      (e: unknown) => e instanceof ScopeFileError && e.line === line && re.test(e.message) && e.message.startsWith(`Cannot parse /p/.synaptic.yaml: line ${line}: `),
      JSON.stringify(text),
    );
  }
});

test('parseScopeFile() errors never repeat a value pasted into the file', () => {
  const value = 'postgres://user:hunter2-pasted@db/app';
  for (const text of [`env:\n  DATABASE_URL: ${value}\n`, `DATABASE_URL=${value}\n`, `env:\n  - ${value}\n`, `scope: ${value}\n`, `env:\n  ${value}\n`, `env:\n  - !${value}\n`]) {
    assert.throws(() => parse(text), (e: unknown) => e instanceof ScopeFileError && !e.message.includes('hunter2'), text);
  }
});
