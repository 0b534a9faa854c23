/**
 * synaptic audit sql|readiness (#21 item 6): the built CLI on test/fixtures/readiness-app with the SQL
 * fixture beside it. The commands run the MCP tools' handlers (test/mcp/readiness-audit.test.ts and
 * audit-sql.test.ts check the findings); here: arguments, text, --json, exit codes, --graph.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CLI_ARGS, ROOT } from '../mcp/helpers.ts';

let dir: string;
let repo: string;
let env: Record<string, string>;

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [...CLI_ARGS, ...args], { cwd, encoding: 'utf8', env, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'synaptic-audit-cli-'));
  repo = join(dir, 'app');
  cpSync(join(ROOT, 'test/fixtures/readiness-app'), repo, { recursive: true });
  cpSync(join(ROOT, 'test/fixtures/sql'), join(repo, 'sql'), { recursive: true });
  env = { ...process.env, SYNAPTIC_DATA_DIR: join(dir, 'data') } as Record<string, string>;
  execFileSync(process.execPath, [...CLI_ARGS, 'extract', repo], { stdio: ['ignore', 'ignore', 'pipe'], env });
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('synaptic audit readiness: ranked text from inside the repository, and --json with --severity', () => {
  const out = cli(join(repo, 'src'), 'audit', 'readiness', '--limit', '2');
  assert.equal(out.code, 0, out.stderr);
  const lines = out.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^\d+ findings \(2 critical, 2 high, .*\) in \d+ subsystems\.$/);
  assert.match(lines[2]!, /^\[critical\] throw_not_implemented @ src\/accounts\.ts:L10 /);
  assert.match(lines[3]!, /^\[critical\] raise_not_implemented @ py\/billing\/payments\.py:L15 /);
  assert.match(lines[4]!, /^\+\d+ more \(raise limit, or verbose for all\)$/);
  const json = cli(dir, 'audit', 'readiness', '--json', '--severity', 'high', '--graph', join(repo, 'synaptic-out'));
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { version: number; findings: Array<{ rule_id: string }>; skipped: unknown[] };
  assert.equal(report.version, 1);
  assert.deepEqual(report.findings.map((f) => f.rule_id), ['throw_not_implemented', 'raise_not_implemented', 'panic_todo', 'todo_macro']);
  assert.deepEqual(report.skipped, []);
});

test('synaptic audit sql: the audit_sql engine on the same graph', () => {
  const out = cli(repo, 'audit', 'sql', '--severity', 'critical');
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /\n\[critical\] sql_injection @ sql\/src\/orders\.ts:L13 /);
  const json = cli(repo, 'audit', 'sql', '--json');
  assert.equal(json.code, 0, json.stderr);
  const rules = (JSON.parse(json.stdout) as { findings: Array<{ rule_id: string }> }).findings.map((f) => f.rule_id);
  assert.ok(rules.includes('sql_injection') && rules.includes('rls_partial'), rules.join(', '));
});

test('bad invocations are usage errors (exit 2); a bad severity is the tool\'s error', () => {
  const none = cli(repo, 'audit');
  assert.equal(none.code, 2);
  assert.match(none.stderr, /synaptic audit sql\|readiness/);
  assert.equal(cli(repo, 'audit', 'lint').code, 2);
  assert.equal(cli(repo, 'audit', 'sql', '--profile', 'python').code, 2);
  assert.equal(cli(repo, 'audit', 'readiness', '--limit', '0').code, 2);
  const bad = cli(repo, 'audit', 'readiness', '--severity', 'urgent');
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /severity/);
});
