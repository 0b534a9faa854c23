// One suite, every backend: the same remember/recall/readmemory/owner tests run against the embedded
// SQLite store and a real PostgreSQL cluster this file starts (initdb + pg_ctl, test/helpers/pg-cluster.ts).
// No mock database: where PostgreSQL is not installed the PostgreSQL half skips and says why.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryBackend } from '../../src/memory/backend.ts';
import type { MemoryRecord } from '../../src/memory/types.ts';
import { openMemoryBackend } from '../../src/memory/database.ts';
import { normalizeRemote } from '../../src/memory/identity.ts';
import { DatabaseUnavailableError } from '../../src/memory/pg/connect.ts';
import { pgUnavailable, startPgCluster, type PgCluster } from '../helpers/pg-cluster.ts';
import { tempDir } from './helpers.ts';

const A = '/work/projects/alpha';
const B = '/work/projects/beta';
const NOW = 1785250000;

interface Harness {
  open(options?: { clock?: () => number; team?: string }): Promise<MemoryBackend>;
}

let dbCounter = 0;
let cluster: PgCluster | null = null;
const skipPg = pgUnavailable();

const backends: Array<{ name: string; skip: string | false; harness: () => Harness }> = [
  {
    name: 'sqlite',
    skip: false,
    harness: () => ({
      async open(options = {}) {
        const t = tempDir();
        const store = await openMemoryBackend({ dir: join(t.dir, 'data'), clock: options.clock, env: {} });
        const close = store.close.bind(store);
        store.close = async () => {
          await close();
          t.cleanup();
        };
        return store;
      },
    }),
  },
  {
    name: 'postgres',
    skip: skipPg ?? false,
    harness: () => ({
      async open(options = {}) {
        const url = cluster!.createDatabase(`t${++dbCounter}`);
        return openMemoryBackend({ url, clock: options.clock, env: { SYNAPTIC_TEAM: options.team ?? 'default' } });
      },
    }),
  },
];

before(async () => {
  if (!skipPg) cluster = await startPgCluster();
});
after(() => cluster?.destroy());

for (const backend of backends) {
  describe(`memory backend: ${backend.name}`, { skip: backend.skip }, () => {
    const h = backend.harness();
    const withStore = async (fn: (s: MemoryBackend) => Promise<void>, options?: { clock?: () => number }) => {
      const s = await h.open(options);
      try {
        await fn(s);
      } finally {
        await s.close();
      }
    };

    test('remember, recall and readmemory return the spec shapes', () =>
      withStore(
        async (s) => {
          assert.deepEqual(await s.remember({ content: 'Use small focused modules.', source: 'synapse', scope: 'project', project: A }), { id: 1, stored: true, superseded: [] });
          assert.deepEqual(await s.recall({ query: 'module structure', limit: 8, budget: 'lean', project: A }), {
            optimization: 'lean',
            memories: [{ id: 1, body: 'Use small focused modules.', source: 'synapse', scope: 'project', project: A, created: NOW }],
          });
          assert.deepEqual(await s.read({ id: 1, project: A, offset: 0, budget: 'lean' }), {
            optimization: 'lean',
            memory: { id: 1, body: 'Use small focused modules.', source: 'synapse', sourceabridged: false, scope: 'project', project: A, created: NOW, offset: 0, next: null, total: 26 },
          });
        },
        { clock: () => NOW },
      ));

    test('supersedes replaces in one step; refusals store nothing', () =>
      withStore(async (s) => {
        const old = await s.remember({ content: 'Deploys go through the staging cluster.', source: 'user', scope: 'project', project: A });
        const neu = await s.remember({ content: 'Deploys go straight to production clusters now.', source: 'user', scope: 'project', project: A, supersedes: [old.id] });
        assert.deepEqual(neu.superseded, [old.id]);
        assert.deepEqual((await s.recall({ query: 'deploys cluster', project: A })).memories.map((m) => m.id), [neu.id]);
        assert.deepEqual(await s.read({ id: old.id, project: A }), { optimization: 'lean', memory: null });
        const b = await s.remember({ content: 'Beta uses spaces.', source: 's', scope: 'project', project: B });
        const g = await s.remember({ content: 'Always write tests.', source: 's', scope: 'global', project: B });
        const before = (await s.list({ all: true })).length;
        await assert.rejects(s.remember({ content: 'x1', source: 's', scope: 'project', project: A, supersedes: [999] }), /does not exist in this scope/);
        await assert.rejects(s.remember({ content: 'x2', source: 's', scope: 'project', project: A, supersedes: [b.id] }), /does not exist in this scope/);
        await assert.rejects(s.remember({ content: 'x3', source: 's', scope: 'project', project: A, supersedes: [g.id] }), /same scope/);
        await assert.rejects(s.remember({ content: 'x4', source: 's', scope: 'project', project: A, supersedes: [old.id] }), new RegExp(`already superseded by ${neu.id}`));
        await assert.rejects(s.remember({ content: 'x5', source: 's', scope: 'project', project: A, supersedes: [neu.id, 999] }), RangeError);
        assert.equal((await s.list({ all: true })).length, before, 'nothing stored');
        assert.equal(await s.count(A), 2, 'neu + the global one');
        const { history } = await s.show(neu.id);
        assert.deepEqual(history.map((m) => [m.id, m.state, m.supersededBy]), [[old.id, 'superseded', neu.id]]);
      }));

    test('scope rule: global plus own project, never another project; duplicates answered with the stored id', () =>
      withStore(async (s) => {
        const a = await s.remember({ content: 'Alpha caches tokens in redis.', source: 's', scope: 'project', project: A });
        await s.remember({ content: 'Beta caches tokens in memcached.', source: 's', scope: 'project', project: B });
        const g = await s.remember({ content: 'Tokens rotate every hour.', source: 's', scope: 'global', project: B });
        assert.deepEqual((await s.recall({ query: 'tokens', project: A })).memories.map((m) => m.id).sort(), [a.id, g.id].sort());
        assert.deepEqual((await s.recall({ query: '', project: A })).memories.map((m) => m.id), [g.id, a.id]);
        assert.equal((await s.read({ id: a.id, project: B })).memory, null, 'out of scope');
        assert.deepEqual(await s.remember({ content: 'Alpha caches tokens in redis.', source: 'other', scope: 'project', project: A }), { id: a.id, stored: false, superseded: [] });
        await assert.rejects(s.remember({ content: '', source: 's', scope: 'project', project: A }), /content is empty/);
        await assert.rejects(s.remember({ content: 'key AKIAIOSFODNN7EXAMPLE', source: 's', scope: 'project', project: A }), /credential|secret|key/i);
      }));

    test('ranking: every term beats some terms, then rarer terms and recency', () => {
      let now = NOW - 100 * 86400;
      return withStore(
        async (s) => {
          const ids: Record<string, number> = {};
          const put = async (name: string, content: string, days: number) => {
            now += days * 86400;
            ids[name] = (await s.remember({ content, source: 's', scope: 'project', project: A })).id;
          };
          for (let i = 0; i < 30; i++) await put(`filler${i}`, `The build runs worker number ${i} on the queue.`, 0);
          await put('both-old', 'The parser handles the lexer tokens.', 1);
          await put('rare', 'A zanzibar migration was planned.', 10);
          await put('common', 'The build worker restarts nightly.', 10);
          await put('both-new', 'The lexer feeds the parser quickly.', 10);
          const ranked = async (q: string) => (await s.recall({ query: q, project: A, limit: 3 })).memories.map((m) => Object.keys(ids).find((k) => ids[k] === m.id));
          assert.deepEqual(await ranked('parser lexer'), ['both-new', 'both-old']);
          assert.deepEqual((await ranked('zanzibar build'))[0], 'rare', 'the rare term outweighs the common one');
          assert.deepEqual(await ranked('parsers lexers'), ['both-new', 'both-old'], 'stemmed');
          assert.deepEqual(await ranked('nothingmatches'), []);
          assert.deepEqual(await ranked('"AND) OR (*'), [], 'query syntax is plain words');
        },
        { clock: () => now },
      );
    });

    test('readmemory pages exact UTF-8 bytes and refuses an offset inside a character', () =>
      withStore(async (s) => {
        const body = `${'é'.repeat(3000)}\n  code()  \n${'x'.repeat(10)}`;
        const { id } = await s.remember({ content: body, source: 's', scope: 'project', project: A });
        let text = '';
        for (let offset: number | null = 0; offset !== null; ) {
          const page: Awaited<ReturnType<MemoryBackend['read']>> = await s.read({ id, project: A, offset });
          text += page.memory!.body;
          assert.equal(page.memory!.total, Buffer.byteLength(body));
          offset = page.memory!.next;
        }
        assert.equal(text, body);
        await assert.rejects(s.read({ id, project: A, offset: 1 }), /Cannot read memory/);
      }));

    test('forget hides, restore brings back; export then import into a fresh store keeps bodies and supersedes chains', () =>
      withStore(async (s) => {
        const v1 = await s.remember({ content: 'Tabs.\n\tExactly  as  written ', source: 'user', scope: 'project', project: A });
        const v2 = await s.remember({ content: 'Two spaces.', source: 'user', scope: 'project', project: A, supersedes: [v1.id] });
        const v3 = await s.remember({ content: 'Four spaces.', source: 'user', scope: 'project', project: A, supersedes: [v2.id] });
        const gone = await s.remember({ content: 'A forgotten one.', source: 'user', scope: 'global', project: A });
        await s.forget(gone.id);
        assert.equal((await s.read({ id: gone.id, project: A })).memory, null);
        await s.restore(gone.id);
        assert.equal((await s.read({ id: gone.id, project: A })).memory?.body, 'A forgotten one.');
        await s.forget(gone.id);
        const exported: MemoryRecord[] = [];
        for await (const m of s.exportAll()) exported.push(m);
        await withStore(async (t) => {
          await t.remember({ content: 'Already here, shifts the ids.', source: 's', scope: 'global', project: B });
          assert.deepEqual(await t.importRecords(exported), { imported: 4, skipped: 0 });
          assert.deepEqual(await t.importRecords(exported), { imported: 0, skipped: 4 }, 'a second import skips them');
          const all = new Map((await t.list({ all: true })).map((m) => [m.body, m]));
          const n1 = all.get('Tabs.\n\tExactly  as  written ')!;
          const n2 = all.get('Two spaces.')!;
          const n3 = all.get('Four spaces.')!;
          assert.notEqual(n1.id, v1.id, 'ids remapped');
          assert.equal(n1.supersededBy, n2.id);
          assert.equal(n2.supersededBy, n3.id);
          assert.equal(all.get('A forgotten one.')!.state, 'forgotten');
          assert.deepEqual((await t.recall({ query: 'spaces', project: A })).memories.map((m) => m.body), ['Four spaces.']);
          assert.equal(v3.stored, true);
        });
      }));

    test('project identity is portable: two clones with one remote share project memory', () =>
      withStore(async (s) => {
        const t = tempDir('synaptic-clones-');
        try {
          const clone = (name: string, url: string) => {
            const root = join(t.dir, name);
            mkdirSync(join(root, '.git'), { recursive: true });
            writeFileSync(join(root, '.git', 'config'), `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
            return root;
          };
          const laptop = clone('laptop', 'git@github.com:Acme/App.git');
          const desktop = clone('desktop', 'https://ci:token@github.com/acme/app');
          const other = clone('other', 'git@github.com:acme/other.git');
          const { id } = await s.remember({ content: 'Releases are cut on Tuesdays.', source: 's', scope: 'project', project: laptop });
          const seen = (await s.recall({ query: 'releases', project: desktop })).memories;
          assert.deepEqual(seen.map((m) => [m.id, m.project]), [[id, 'github.com/acme/app']]);
          assert.equal((await s.read({ id, project: desktop })).memory?.id, id);
          assert.deepEqual((await s.recall({ query: 'releases', project: other })).memories, []);
        } finally {
          t.cleanup();
        }
      }));
  });
}

test('normalizeRemote: scp, https with credentials, ssh with port and .git all give host/path; local paths are not portable', () => {
  assert.equal(normalizeRemote('git@github.com:Acme/App.git'), 'github.com/acme/app');
  assert.equal(normalizeRemote('https://user:tok@GitHub.com/acme/app/'), 'github.com/acme/app');
  assert.equal(normalizeRemote('ssh://git@github.com:22/acme/app.git'), 'github.com/acme/app');
  assert.equal(normalizeRemote('/srv/git/app.git'), null);
  assert.equal(normalizeRemote('file:///srv/git/app.git'), null);
  assert.equal(normalizeRemote('../app'), null);
});

describe('postgres only', { skip: skipPg ?? false }, () => {
  test('teams are separate: one database, two teams, no row crosses', async () => {
    const url = cluster!.createDatabase(`team${++dbCounter}`);
    const red = await openMemoryBackend({ url, env: { SYNAPTIC_TEAM: 'red' } });
    const blue = await openMemoryBackend({ url, env: { SYNAPTIC_TEAM: 'blue' } });
    try {
      const r = await red.remember({ content: 'Red team deploys on Fridays.', source: 's', scope: 'global', project: A });
      await blue.remember({ content: 'Blue team deploys on Mondays.', source: 's', scope: 'global', project: A });
      assert.deepEqual((await blue.recall({ query: 'deploys', project: A })).memories.map((m) => m.body), ['Blue team deploys on Mondays.']);
      assert.equal((await blue.read({ id: r.id, project: A })).memory, null);
      await assert.rejects(blue.remember({ content: 'x', source: 's', scope: 'global', project: A, supersedes: [r.id] }), /does not exist/);
      await assert.rejects(blue.show(r.id), /no memory has that id/);
    } finally {
      await red.close();
      await blue.close();
    }
  });

  test('migration 2: the postings recall reads follow every write (remember, supersede, forget, restore, import) and are backfilled from version 1', async () => {
    const url = cluster!.createDatabase(`post${++dbCounter}`);
    // A version-1 database holding memories, as the previous release left it.
    const { default: pg } = await import('pg');
    const { PG_MIGRATIONS } = await import('../../src/memory/pg/schema.ts');
    const { migratePg } = await import('../../src/memory/pg/connect.ts');
    const pool = new pg.Pool({ connectionString: url });
    try {
      await migratePg(pool, url, PG_MIGRATIONS.slice(0, 1));
      await pool.query("INSERT INTO projects (team, key) VALUES ('default', $1)", [A]);
      await pool.query(
        `INSERT INTO memories (team, body, source, project_id, scope_key, created, changed, digest, state, search)
         VALUES ('default', 'Old rows are indexed too.', 's', 1, 1, 1, 1, 1, 0, to_tsvector('synaptic_memory', 'old rows are indexed too s'))`,
      );
    } finally {
      await pool.end();
    }
    const s = await openMemoryBackend({ url, env: {} });
    const pgStore = s as unknown as { pool: import('pg').Pool };
    // Every live memory's lexemes, and nothing else, are in memory_terms.
    const consistent = async () => {
      const { rows } = await pgStore.pool.query<{ missing: number; extra: number }>(
        `WITH want AS (SELECT team, unnest(tsvector_to_array(search)) AS term, id, scope_key FROM memories WHERE state = 0)
         SELECT (SELECT count(*) FROM (SELECT * FROM want EXCEPT SELECT team, term, id, scope_key FROM memory_terms) a) AS missing,
                (SELECT count(*) FROM (SELECT team, term, id, scope_key FROM memory_terms EXCEPT SELECT * FROM want) b) AS extra`,
      );
      assert.deepEqual(rows[0], { missing: 0, extra: 0 });
    };
    try {
      await consistent();
      assert.deepEqual((await s.recall({ query: 'indexed rows', project: A })).memories.map((m) => m.id), [1]);
      const a = await s.remember({ content: 'Deploys go through the staging queue.', source: 's', scope: 'project', project: A });
      const b = await s.remember({ content: 'Deploys go through the release train.', source: 's', scope: 'project', project: A, supersedes: [a.id] });
      await consistent();
      assert.deepEqual((await s.recall({ query: 'deploys staging', project: A })).memories.map((m) => m.id), [b.id]);
      await s.forget(b.id);
      await consistent();
      assert.deepEqual((await s.recall({ query: 'deploys', project: A })).memories, []);
      await s.restore(a.id);
      await consistent();
      assert.deepEqual((await s.recall({ query: 'staging queue', project: A })).memories.map((m) => m.id), [a.id]);
      await s.importRecords([{ ...(await s.show(a.id)).memory, id: 99, body: 'Imported: staging is frozen on Fridays.', created: 5 }]);
      await consistent();
      assert.equal((await s.recall({ query: 'frozen staging', project: A })).memories[0]?.body, 'Imported: staging is frozen on Fridays.');
    } finally {
      await s.close();
    }
  });

  test('the database going away mid-session gives a clear error; memory works again when it is back', async () => {
    const url = cluster!.createDatabase(`gone${++dbCounter}`);
    const s = await openMemoryBackend({ url, env: {} });
    try {
      await s.remember({ content: 'Before the outage.', source: 's', scope: 'global', project: A });
      cluster!.stop();
      try {
        await assert.rejects(s.recall({ query: 'outage', project: A }), (err: Error) => {
          assert.ok(err instanceof DatabaseUnavailableError, String(err));
          assert.match(err.message, /Cannot recall: the team database postgres:\/\/synaptic@127\.0\.0\.1:\d+\/gone\d+ is unreachable .*Graph tools keep working/);
          return true;
        });
        await assert.rejects(s.remember({ content: 'During.', source: 's', scope: 'global', project: A }), DatabaseUnavailableError);
      } finally {
        cluster!.start();
      }
      assert.deepEqual((await s.recall({ query: 'outage', project: A })).memories.map((m) => m.body), ['Before the outage.']);
    } finally {
      await s.close();
    }
  });
});
