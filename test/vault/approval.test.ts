import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { cli, cliOnTtySteps, sandbox, type Sandbox } from './helpers.ts';

// The audit's finding, replayed: an agent (no terminal, CLAUDECODE=1) edits .synaptic.yaml, runs
// `synaptic scope trust`, then `synaptic run -- env` prints the values. A person must approve instead.
let sb: Sandbox;
const VALUE = `approval-secret-${process.pid}`;
const AGENT = { CLAUDECODE: '1' };
const PROMPT = 'Type yes to approve: ';

before(() => {
  sb = sandbox();
  // The person's setup: a secret held for the project, and a scope file naming nothing yet.
  assert.equal(cli(sb, ['vault', 'set', 'API_TOKEN', '--i-am-human'], { input: VALUE }).status, 0);
  assert.equal(cli(sb, ['scope', 'init']).status, 0);
});
after(() => sb.cleanup());

const scopeFile = () => join(sb.project, '.synaptic.yaml');
/** The agent's edit: the scope file now names the secret (an untrusted change). */
const nameSecret = () => appendFileSync(scopeFile(), '  - API_TOKEN\n');
/** Any later edit makes a trusted file untrusted again. */
const edit = () => appendFileSync(scopeFile(), '# edited\n');
const trusted = (env: Record<string, string> = {}) => JSON.parse(cli(sb, ['scope', 'status', '--json'], { env }).stdout).scopes[0].trusted as boolean;
const envOfRun = () => cli(sb, ['run', '--', 'env']).stdout;

test('an agent session without a terminal cannot trust a scope file: refused with the reason, nothing recorded, run gets nothing', () => {
  nameSecret();
  const r = cli(sb, ['scope', 'trust'], { env: AGENT });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /^synaptic scope: Cannot trust .*\.synaptic\.yaml: this runs inside Claude Code \(CLAUDECODE is set\), and an agent must not grant itself secrets\./);
  assert.match(r.stderr, /names default\.API_TOKEN/);
  assert.match(r.stderr, /pass --i-am-human if you are a person .* \(an agent must never pass it\)\. Nothing was changed/);
  assert.equal(r.stdout, '');
  assert.equal(trusted(), false);
  assert.ok(!envOfRun().includes(VALUE), 'synaptic run -- env prints no value');
});

test('other agents are recognized by their variables, and no terminal alone is refused too', () => {
  for (const [env, agent] of [
    [{ CLAUDE_CODE_ENTRYPOINT: 'cli' }, /Claude Code \(CLAUDE_CODE_ENTRYPOINT is set\)/],
    [{ CODEX_SANDBOX: 'seatbelt' }, /Codex \(CODEX_SANDBOX is set\)/],
    [{ CODEX_SANDBOX_NETWORK_DISABLED: '1' }, /Codex/],
    [{ CURSOR_AGENT: '1' }, /Cursor/],
    [{ GEMINI_CLI: '1' }, /Gemini CLI/],
  ] as const) {
    const r = cli(sb, ['scope', 'trust'], { env });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, agent);
  }
  const plain = cli(sb, ['scope', 'trust']);
  assert.equal(plain.status, 1);
  assert.match(plain.stderr, /Cannot trust .*: standard input is not a terminal, so no person can confirm it\./);
  assert.equal(trusted(), false);
});

test('vault set and vault hold are refused the same way, and store nothing', () => {
  const set = cli(sb, ['vault', 'set', 'PLANTED'], { env: AGENT, input: 'agent-chosen-value' });
  assert.equal(set.status, 1);
  assert.match(set.stderr, /^synaptic vault: Cannot store default\.PLANTED: this runs inside Claude Code/);
  const hold = cli(sb, ['vault', 'hold', 'API_TOKEN', '--for', sb.base], { env: AGENT });
  assert.equal(hold.status, 1);
  assert.match(hold.stderr, /Cannot hold default\.API_TOKEN: this runs inside Claude Code/);
  const list = cli(sb, ['vault', 'list', '--json']).stdout;
  assert.deepEqual(JSON.parse(list), [{ name: 'default.API_TOKEN', folders: [sb.project], updated: JSON.parse(list)[0].updated }]);
});

test('--i-am-human lets a person approve from a script, even with an agent variable set', () => {
  const r = cli(sb, ['scope', 'trust', '--i-am-human'], { env: AGENT });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Trusted .*\.synaptic\.yaml: API_TOKEN/);
  assert.equal(trusted(), true);
  assert.match(envOfRun(), new RegExp(`^API_TOKEN=${VALUE}$`, 'm'));
});

test('on a terminal a person confirms: "yes" trusts, anything else refuses, an agent variable refuses without asking', async (t) => {
  edit();
  const no = await cliOnTtySteps(sb, ['scope', 'trust'], [[PROMPT, 'no\r']]);
  if (!no) return t.skip('util-linux script is not installed');
  assert.equal(no.status, 1, no.screen);
  assert.match(no.screen, /names default\.API_TOKEN.*Trust it\? Type yes to approve:/s);
  assert.match(no.screen, /Cannot trust .*: not approved \(only "yes" approves/);
  assert.equal(trusted(), false);

  const agent = await cliOnTtySteps(sb, ['scope', 'trust'], [[PROMPT, 'yes\r']], { env: AGENT });
  assert.equal(agent!.status, 1, agent!.screen);
  assert.ok(!agent!.screen.includes(PROMPT), 'no question is asked in an agent session');
  assert.match(agent!.screen, /this runs inside Claude Code/);
  assert.equal(trusted(), false);

  const yes = await cliOnTtySteps(sb, ['scope', 'trust'], [[PROMPT, 'yes\r']]);
  assert.equal(yes!.status, 0, yes!.screen);
  assert.match(yes!.screen, /Trusted .*\.synaptic\.yaml: API_TOKEN/);
  assert.equal(trusted(), true);
});

test('on a terminal vault set asks first, then reads the value hidden', async (t) => {
  const no = await cliOnTtySteps(sb, ['vault', 'set', 'TYPED'], [[PROMPT, 'n\r']]);
  if (!no) return t.skip('util-linux script is not installed');
  assert.equal(no.status, 1, no.screen);
  assert.ok(!no.screen.includes('Value for'), 'no value is asked for when not approved');
  const typed = `typed-${process.pid}`;
  const yes = await cliOnTtySteps(sb, ['vault', 'set', 'TYPED'], [
    [PROMPT, 'YES\r'],
    ['Value for default.TYPED: ', `${typed}\r`],
  ]);
  assert.equal(yes!.status, 0, yes!.screen);
  assert.ok(!yes!.screen.includes(typed), 'the value is not echoed');
  assert.match(cli(sb, ['vault', 'list']).stdout, /default\.TYPED/);
});
