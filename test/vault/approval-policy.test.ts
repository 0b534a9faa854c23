import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { agentSession, grantRefusal, HUMAN_FLAG, isYes, trustScope, TrustStore } from '../../src/vault/index.ts';

test('agentSession() names the agent from the variables it sets in its commands', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ CLAUDECODE: '1' }, 'Claude Code (CLAUDECODE is set)'],
    [{ CLAUDE_CODE_ENTRYPOINT: 'sdk-ts' }, 'Claude Code (CLAUDE_CODE_ENTRYPOINT is set)'],
    [{ CODEX_SANDBOX: 'seatbelt' }, 'Codex (CODEX_SANDBOX is set)'],
    [{ CODEX_SANDBOX_NETWORK_DISABLED: '1' }, 'Codex (CODEX_SANDBOX_NETWORK_DISABLED is set)'],
    [{ CODEX_THREAD_ID: 't-1' }, 'Codex (CODEX_THREAD_ID is set)'],
    [{ CURSOR_AGENT: '1' }, 'Cursor (CURSOR_AGENT is set)'],
    [{ CURSOR_TRACE_ID: 'x', PAGER: 'head -n 10000 | cat' }, 'Cursor (CURSOR_TRACE_ID is set, PAGER=head -n 10000 | cat)'],
    [{ GEMINI_CLI: '1' }, 'Gemini CLI (GEMINI_CLI is set)'],
    [{ AGENT: 'amp' }, 'Amp (AGENT=amp)'],
    [{ TERM_PROGRAM: 'vscode', GIT_PAGER: 'cat' }, 'GitHub Copilot (VS Code) (TERM_PROGRAM=vscode, GIT_PAGER=cat)'],
    [{ AI_AGENT: 'something' }, 'an AI agent (AI_AGENT is set)'],
  ];
  for (const [env, agent] of cases) assert.equal(agentSession(env), agent, JSON.stringify(env));
});

test("agentSession() leaves a person's own shell alone", () => {
  for (const env of [
    {},
    { CODEX_HOME: '/home/me/.codex' }, // set by people to configure Codex
    { CURSOR_TRACE_ID: 'x' }, // Cursor's terminal, used by people too
    { TERM_PROGRAM: 'vscode' },
    { TERM_PROGRAM: 'zed' },
    { CLAUDECODE: '' }, // set but empty: unset by the person
    { REPL_ID: 'r' },
  ]) {
    assert.equal(agentSession(env), null, JSON.stringify(env));
  }
});

test('grantRefusal(): the flag allows, a terminal allows (the prompt decides), an agent or no terminal refuses with why', () => {
  const agent = { CLAUDECODE: '1' };
  assert.equal(grantRefusal('trust /p', 'What.', { terminal: false, env: agent, human: true }), null);
  assert.equal(grantRefusal('trust /p', 'What.', { terminal: true, env: {}, human: false }), null);
  const inAgent = grantRefusal('trust /p', 'It grants X.', { terminal: true, env: agent, human: false })!;
  assert.match(inAgent, /^Cannot trust \/p: this runs inside Claude Code \(CLAUDECODE is set\), and an agent must not grant itself secrets\. It grants X\. /);
  assert.ok(inAgent.includes(HUMAN_FLAG) && /an agent must never pass it/.test(inAgent) && /Nothing was changed$/.test(inAgent));
  assert.match(grantRefusal('trust /p', 'It grants X.', { terminal: false, env: {}, human: false })!, /standard input is not a terminal, so no person can confirm it/);
});

test('isYes() accepts only yes', () => {
  for (const a of ['yes', 'YES', ' Yes \n']) assert.equal(isYes(a), true, a);
  for (const a of ['', 'y', 'no', 'yes please', 'ye s']) assert.equal(isYes(a), false, a);
});

test('trustScope() with the reviewed bytes refuses a file changed after the prompt showed it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-approval-'));
  try {
    const env = { SYNAPTIC_DATA_DIR: join(dir, 'data'), HOME: dir };
    const file = join(dir, '.synaptic.yaml');
    writeFileSync(file, 'env:\n  - A\n');
    const reviewed = readFileSync(file);
    writeFileSync(file, 'env:\n  - A\n  - EVERYTHING_ELSE\n'); // edited while the person read the prompt
    assert.throws(() => trustScope(file, [], env, reviewed), /Cannot trust .*: it changed after it was shown for approval; nothing was trusted/);
    assert.equal(new TrustStore(env).get(file), undefined);
    writeFileSync(file, reviewed);
    assert.deepEqual(trustScope(file, [], env, reviewed).granted, ['A']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
