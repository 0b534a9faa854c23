// Team mode end to end against a real PostgreSQL cluster (test/helpers/pg-cluster.ts): a `synaptic serve`
// stdio child with SYNAPTIC_DATABASE_URL, the cluster stopped under it, vaultstatus, and the CLI's
// data export / import / migrate between SQLite and PostgreSQL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openMemoryBackend } from '../../src/memory/database.ts';
import { clearProjectKeys } from '../../src/memory/identity.ts';
import { MemoryStore } from '../../src/memory/store.ts';
import { SkillLibrary } from '../../src/skills/library.ts';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster.ts';
import { runCli, ServeChild, twoProjectSetup } from './mcp-child.ts';

const skip = pgUnavailable() ?? false;
let cluster: PgCluster | null = null;
before(async () => {
  if (!skip) cluster = await startPgCluster();
});
after(() => cluster?.destroy());

const json = (r: { result?: { content: Array<{ text: string }> } }) => JSON.parse(r.result!.content[0]!.text);

test('serve in team mode: memory in PostgreSQL; the database stopping mid-session is a clear tool error, graph tools keep answering, memory returns with it', { skip }, async () => {
  const s = twoProjectSetup();
  const url = cluster!.createDatabase('serve_team');
  const server = new ServeChild(s.graph, { ...s.env(s.repoA), SYNAPTIC_DATABASE_URL: url }, s.repoA);
  try {
    await server.initialize();
    const stored = await server.waitFor(server.call('remember', { content: 'The team ships on Thursdays.', source: 'user' }));
    assert.equal(json(stored).stored, true, JSON.stringify(stored));
    const direct = await openMemoryBackend({ url, env: {} });
    assert.deepEqual((await direct.list({ all: true })).map((m) => m.body), ['The team ships on Thursdays.'], 'the row is in PostgreSQL');
    await direct.close();
    const vault = await server.waitFor(server.call('vaultstatus', {}));
    assert.match(json(vault).note, /Team mode: .*the vault stays on this machine/);

    cluster!.stop();
    try {
      const failed = await server.waitFor(server.call('recall', { query: 'ships' }));
      assert.equal(failed.result?.isError, true, JSON.stringify(failed));
      assert.match(failed.result!.content[0]!.text, /Cannot recall: the team database postgres:\/\/synaptic@127\.0\.0\.1:\d+\/serve_team is unreachable .*Graph tools keep working/);
      const graph = await server.waitFor(server.call('graph_stats', {}));
      assert.notEqual(graph.result?.isError, true, JSON.stringify(graph));
    } finally {
      cluster!.start();
    }
    const back = await server.waitFor(server.call('recall', { query: 'ships' }));
    assert.deepEqual(json(back).memories.map((m: { body: string }) => m.body), ['The team ships on Thursdays.']);
    assert.equal(server.child.exitCode, null, 'the server kept running');
  } finally {
    await server.close();
    s.cleanup();
  }
});

test('data migrate --to postgres copies SQLite memory with its supersedes chain; export/import round-trips exact bodies; --to sqlite copies back', { skip }, async () => {
  const s = twoProjectSetup();
  try {
    const local = MemoryStore.open({ dir: s.data, lock: false });
    const v1 = local.remember({ content: 'Indent with tabs.\n\t  kept  exactly ', source: 'user', scope: 'project', project: s.repoA });
    local.remember({ content: 'Indent with two spaces.', source: 'user', scope: 'project', project: s.repoA, supersedes: [v1.id] });
    local.remember({ content: 'Review every migration.', source: 'user', scope: 'global', project: s.repoB });
    local.close();
    const url = cluster!.createDatabase('migrate_to');
    const env = s.env(s.repoA);
    // Skills taught on this machine before team mode: one approved (installed here) then revised, one global pending.
    const lib = new SkillLibrary(env);
    await lib.teach({ name: 'deploy-check', description: 'Checks before a deploy', instructions: 'Run the tests.\n', scope: 'project', project: s.repoA, note: 'asked twice' });
    const installed = await lib.approve('deploy-check', s.repoA);
    await lib.revise({ name: 'deploy-check', instructions: 'Run the tests, then the smoke suite.\n', note: 'smoke suite added', project: s.repoA });
    await lib.teach({ name: 'tidy-imports', description: 'Sort imports', instructions: 'Sort them.\n', scope: 'global', project: null, note: 'style' });
    const skillsHere = JSON.parse((await runCli(['skills', 'list', '--json'], env, s.repoA)).stdout) as Array<Record<string, unknown>>;
    assert.equal(skillsHere.length, 2);
    const bad = await runCli(['data', 'migrate', '--to', 'mysql://x@y/z'], env, s.repoA);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /only postgres:\/\/ \(or postgresql:\/\/\) URLs are supported/);
    const migrated = await runCli(['data', 'migrate', '--to', url], env, s.repoA);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stdout, /Migrated 3 memories and 2 skills from .*memory\.db to postgres:\/\/synaptic@127\.0\.0\.1:\d+\/migrate_to/);
    assert.match(migrated.stdout, /No SKILL\.md was installed/);
    const again = await runCli(['data', 'migrate', '--to', url], env, s.repoA);
    assert.match(again.stdout, /Migrated 0 memories and 0 skills .*\(3 memories and 2 skills already there, skipped\)/);

    const team = { ...env, SYNAPTIC_DATABASE_URL: url };
    // Another machine (its own data dir) in team mode lists and shows the skills as taught, revision included, not installed there.
    const machineB = { ...team, SYNAPTIC_DATA_DIR: join(s.dir, 'data2') };
    const listedB = JSON.parse((await runCli(['skills', 'list', '--json'], machineB, s.repoA)).stdout) as Array<Record<string, unknown>>;
    const strip = (m: Record<string, unknown>): Record<string, unknown> => ({ ...m, installed: null });
    assert.deepEqual(listedB.map(strip).sort((a, b) => String(a.name).localeCompare(String(b.name))), skillsHere.map(strip).sort((a, b) => String(a.name).localeCompare(String(b.name))));
    assert.ok(listedB.every((m) => m.installed === null), 'migrate installs nothing on another machine');
    const deploy = listedB.find((m) => m.name === 'deploy-check')!;
    assert.equal(deploy.status, 'pending');
    assert.deepEqual((deploy.revisions as Array<{ id: string; note: string }>).map((r) => [r.id, r.note]), [['r1', 'smoke suite added']]);
    const shown = await runCli(['skills', 'show', 'deploy-check'], machineB, s.repoA);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Run the tests, then the smoke suite\./);
    assert.equal((await runCli(['skills', 'show', 'deploy-check', '--revision', 'r1'], machineB, s.repoA)).stdout, 'Run the tests.\n');
    const listedA = JSON.parse((await runCli(['skills', 'list', '--json'], team, s.repoA)).stdout) as Array<{ name: string; installed: { path: string } | null }>;
    assert.equal(listedA.find((m) => m.name === 'deploy-check')!.installed?.path, installed.path, 'this machine keeps its installation record');
    const recalled = await runCli(['memory', 'list', '--json'], team, s.repoA);
    assert.deepEqual((JSON.parse(recalled.stdout) as Array<{ body: string }>).map((m) => m.body), ['Review every migration.', 'Indent with two spaces.']);
    const file = join(s.dir, 'team.jsonl');
    const exported = await runCli(['data', 'export', file], team, s.repoA);
    assert.equal(exported.code, 0, exported.stderr);
    const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: number; body: string; supersededBy: number | null });
    assert.equal(records.length, 3);
    const old = records.find((r) => r.body === 'Indent with tabs.\n\t  kept  exactly ')!;
    assert.equal(old.supersededBy, records.find((r) => r.body === 'Indent with two spaces.')!.id, 'the chain survived the migration');

    const url2 = cluster!.createDatabase('import_into');
    const imported = await runCli(['data', 'import', file], { ...env, SYNAPTIC_DATABASE_URL: url2 }, s.repoA);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /Imported 3 memories into postgres:/);
    const store = await openMemoryBackend({ url: url2, env: {} });
    try {
      const all = await store.list({ all: true });
      const tabs = all.find((m) => m.body === 'Indent with tabs.\n\t  kept  exactly ')!;
      assert.equal(tabs.state, 'superseded');
      assert.equal(tabs.supersededBy, all.find((m) => m.body === 'Indent with two spaces.')!.id);
    } finally {
      await store.close();
    }

    const backup = await runCli(['data', 'backup', join(s.dir, 'b.db')], team, s.repoA);
    assert.equal(backup.code, 2);
    assert.match(backup.stderr, /memory is in the team database postgres:.* \(team mode\): use synaptic data export FILE, or pg_dump/);
    const fresh = { ...team, SYNAPTIC_DATA_DIR: join(s.dir, 'data2') };
    const back = await runCli(['data', 'migrate', '--to', 'sqlite'], fresh, s.repoA);
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /Migrated 3 memories and 2 skills from postgres:.* to .*data2\/memory\.db/);
    const offline = { ...env, SYNAPTIC_DATA_DIR: join(s.dir, 'data2') };
    const listedFiles = JSON.parse((await runCli(['skills', 'list', '--json'], offline, s.repoA)).stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(listedFiles.map(strip).sort((a, b) => String(a.name).localeCompare(String(b.name))), skillsHere.map(strip).sort((a, b) => String(a.name).localeCompare(String(b.name))));
    assert.equal((await runCli(['skills', 'show', 'deploy-check', '--revision', 'r1'], offline, s.repoA)).stdout, 'Run the tests.\n');
    const backAgain = await runCli(['data', 'migrate', '--to', 'sqlite'], fresh, s.repoA);
    assert.match(backAgain.stdout, /Migrated 0 memories and 0 skills .*\(3 memories and 2 skills already there, skipped\)/);
    // The approved text travelled both ways: rejecting the pending revision rolls back to it.
    const rejected = await runCli(['skills', 'reject', 'deploy-check'], offline, s.repoA);
    assert.match(rejected.stdout, /the approved text stays/, rejected.stderr);
    assert.match((await runCli(['skills', 'show', 'deploy-check'], offline, s.repoA)).stdout, /Run the tests\.\n/);

    // A project keyed by its git remote: its skills go back into the files only from a clone of it.
    writeFileSync(join(s.repoB, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/beta.git\n');
    clearProjectKeys();
    const teamLib = await SkillLibrary.open({ ...team, SYNAPTIC_DATA_DIR: join(s.dir, 'data3') });
    await teamLib.teach({ name: 'beta-only', description: 'Beta release steps', instructions: 'Tag it.\n', scope: 'project', project: s.repoB, note: 'n' });
    await teamLib.close();
    const third = { ...team, SYNAPTIC_DATA_DIR: join(s.dir, 'data3') };
    const fromA = await runCli(['data', 'migrate', '--to', 'sqlite'], third, s.repoA);
    assert.match(fromA.stdout, /Migrated 3 memories and 2 skills .*\n1 skill of other projects not copied: run synaptic data migrate --to sqlite in a clone of each project/);
    const fromB = await runCli(['data', 'migrate', '--to', 'sqlite'], third, s.repoB);
    assert.match(fromB.stdout, /Migrated 0 memories and 1 skill .*\(3 memories and 2 skills already there, skipped\)/);
    const betaFiles = JSON.parse((await runCli(['skills', 'list', '--json'], { ...env, SYNAPTIC_DATA_DIR: join(s.dir, 'data3') }, s.repoB)).stdout) as Array<{ name: string; project: string }>;
    assert.equal(betaFiles.find((m) => m.name === 'beta-only')?.project, s.repoB, 'keyed by the project root on this machine');
  } finally {
    s.cleanup();
  }
});

test('settings database URL|off and settings team select the store; a bad URL is refused; the password never prints', { skip }, async () => {
  const s = twoProjectSetup();
  try {
    const url = cluster!.createDatabase('settings_db');
    const env = s.env(s.repoA);
    const withPassword = url.replace('synaptic@', 'synaptic:hunter2@');
    const set = await runCli(['settings', 'database', withPassword], env, s.repoA);
    assert.equal(set.code, 0, set.stderr);
    assert.doesNotMatch(set.stdout, /hunter2/);
    assert.match((await runCli(['settings', 'database'], env, s.repoA)).stdout, /synaptic:\*\*\*@127\.0\.0\.1/);
    const bad = await runCli(['settings', 'database', 'sqlite:///x'], env, s.repoA);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /only postgres:\/\//);
    assert.equal((await runCli(['settings', 'team', 'red'], env, s.repoA)).code, 0);
    const stored = await runCli(['session', '--json'], env, s.repoA);
    assert.equal(stored.code, 0, stored.stderr);
    const imported = await runCli(['memory', 'import'], env, s.repoA, `${JSON.stringify({ id: 1, body: 'Red team note.', source: 's', scope: 'global', project: s.repoA, created: 1 })}\n`);
    assert.equal(imported.code, 0, imported.stderr);
    const red = await openMemoryBackend({ url, env: { SYNAPTIC_TEAM: 'red' } });
    const other = await openMemoryBackend({ url, env: {} });
    try {
      assert.deepEqual((await red.list({ all: true })).map((m) => m.body), ['Red team note.'], 'stored in PostgreSQL under team red');
      assert.deepEqual(await other.list({ all: true }), [], 'team default sees nothing');
    } finally {
      await red.close();
      await other.close();
    }
    assert.equal((await runCli(['settings', 'database', 'off'], env, s.repoA)).code, 0);
    assert.deepEqual(JSON.parse((await runCli(['memory', 'list', '--json'], env, s.repoA)).stdout), [], 'back on the (empty) local SQLite store');
  } finally {
    s.cleanup();
  }
});
