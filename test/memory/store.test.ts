import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CredentialRefusedError, NotFoundError } from '../../src/memory/errors.ts';
import { BUDGETS } from '../../src/memory/budget.ts';
import { tempStore } from './helpers.ts';

const A = '/work/projects/alpha';
const B = '/work/projects/beta';

test('remember() then recall() and readmemory() return the spec shapes', () => {
  const { store, cleanup } = tempStore({ clock: () => 1785250000 });
  try {
    const r = store.remember({ content: 'Use small focused modules.', source: 'synapse', scope: 'project', project: A });
    assert.deepEqual(r, { id: 1, stored: true, superseded: [] });
    assert.deepEqual(store.recall({ query: 'module structure', limit: 8, budget: 'lean', project: A }), {
      optimization: 'lean',
      memories: [{ id: 1, body: 'Use small focused modules.', source: 'synapse', scope: 'project', project: A, created: 1785250000 }],
    });
    assert.deepEqual(store.read({ id: 1, project: A, offset: 0, budget: 'lean' }), {
      optimization: 'lean',
      memory: { id: 1, body: 'Use small focused modules.', source: 'synapse', sourceabridged: false, scope: 'project', project: A, created: 1785250000, offset: 0, next: null, total: 26 },
    });
  } finally {
    cleanup();
  }
});

test('remember() with supersedes replaces in one step; the old memory is never recalled or read', () => {
  const { store, cleanup } = tempStore();
  try {
    const old = store.remember({ content: 'Deploys go through the staging cluster.', source: 'user', scope: 'project', project: A });
    const neu = store.remember({ content: 'Deploys go straight to production clusters now.', source: 'user', scope: 'project', project: A, supersedes: [old.id] });
    assert.deepEqual(neu.superseded, [old.id]);
    const ids = store.recall({ query: 'deploys cluster', project: A }).memories.map((m) => m.id);
    assert.deepEqual(ids, [neu.id]);
    assert.deepEqual(store.read({ id: old.id, project: A }), { optimization: 'lean', memory: null });
    assert.equal(store.count(A), 1);
  } finally {
    cleanup();
  }
});

test('remember() refuses to supersede a missing, foreign, other-scope or already superseded id and stores nothing', () => {
  const { store, cleanup } = tempStore();
  try {
    const a = store.remember({ content: 'Alpha uses tabs.', source: 's', scope: 'project', project: A });
    const b = store.remember({ content: 'Beta uses spaces.', source: 's', scope: 'project', project: B });
    const g = store.remember({ content: 'Always write tests.', source: 's', scope: 'global', project: B });
    const before = store.list({ all: true }).length;
    assert.throws(() => store.remember({ content: 'x1', source: 's', scope: 'project', project: A, supersedes: [999] }), /does not exist in this scope/);
    assert.throws(() => store.remember({ content: 'x2', source: 's', scope: 'project', project: A, supersedes: [b.id] }), /does not exist in this scope/);
    assert.throws(() => store.remember({ content: 'x3', source: 's', scope: 'project', project: A, supersedes: [g.id] }), /same scope/);
    assert.throws(() => store.remember({ content: 'x4', source: 's', scope: 'project', project: A, supersedes: [a.id, 999] }), RangeError);
    assert.equal(store.list({ all: true }).length, before, 'nothing stored');
    assert.equal(store.recall({ query: 'alpha tabs', project: A }).memories[0]?.id, a.id, 'a still live after the failed batch');
    const a2 = store.remember({ content: 'Alpha uses two spaces.', source: 's', scope: 'project', project: A, supersedes: [a.id] });
    assert.throws(() => store.remember({ content: 'x5', source: 's', scope: 'project', project: A, supersedes: [a.id] }), new RegExp(`already superseded by ${a2.id}`));
  } finally {
    cleanup();
  }
});

test('scope rule: global plus own project, never another project', () => {
  const { store, cleanup } = tempStore();
  try {
    store.remember({ content: 'Alpha secret sauce is the parser cache.', source: 's', scope: 'project', project: A });
    store.remember({ content: 'Beta parser cache is disabled.', source: 's', scope: 'project', project: B });
    store.remember({ content: 'Global parser cache guidance.', source: 's', scope: 'global', project: A });
    const forB = store.recall({ query: 'parser cache', project: B, limit: 50 }).memories;
    assert.deepEqual(forB.map((m) => m.body).sort(), ['Beta parser cache is disabled.', 'Global parser cache guidance.']);
    const emptyB = store.recall({ query: '', project: B, limit: 50 }).memories;
    assert.ok(emptyB.every((m) => !m.body.includes('Alpha')));
    assert.equal(store.count(B), 2);
    assert.equal(store.count('/never/seen'), 1, 'an unknown project still sees global memory');
  } finally {
    cleanup();
  }
});

test('recall() with an empty query returns the most recent first, within limit', () => {
  let t = 1000;
  const { store, cleanup } = tempStore({ clock: () => t++ });
  try {
    for (let i = 0; i < 5; i++) store.remember({ content: `Fact number ${i}.`, source: 's', scope: 'project', project: A });
    const got = store.recall({ query: '', limit: 3, project: A }).memories.map((m) => m.body);
    assert.deepEqual(got, ['Fact number 4.', 'Fact number 3.', 'Fact number 2.']);
  } finally {
    cleanup();
  }
});

test('recall() ranks a memory holding every term above ones holding fewer, and stems words', () => {
  const { store, cleanup } = tempStore();
  try {
    store.remember({ content: 'The router logs every request.', source: 's', scope: 'project', project: A });
    const both = store.remember({ content: 'Database migrations run before the router starts.', source: 's', scope: 'project', project: A });
    store.remember({ content: 'Database backups are nightly.', source: 's', scope: 'project', project: A });
    const got = store.recall({ query: 'router database migration', project: A }).memories;
    assert.equal(got[0]!.id, both.id);
    assert.equal(got.length, 3);
  } finally {
    cleanup();
  }
});

test('recall() fits the budget: bodies that do not fit come back as their opening sentence, abridged', () => {
  const { store, cleanup } = tempStore();
  try {
    const long = 'Opening sentence about caching. ' + 'More detail about caching layers. '.repeat(200);
    const r = store.remember({ content: long, source: 's', scope: 'project', project: A });
    const lean = store.recall({ query: 'caching', project: A, budget: 'lean' });
    assert.equal(lean.memories[0]!.body, 'Opening sentence about caching.');
    assert.equal(lean.memories[0]!.abridged, true);
    assert.ok(Buffer.byteLength(long) > BUDGETS.lean.recallBytes);
    const short = store.remember({ content: 'Caching is off in tests.', source: 's', scope: 'project', project: A });
    const both = store.recall({ query: 'caching', project: A });
    assert.equal(both.memories.find((m) => m.id === short.id)!.abridged, undefined, 'abridged appears only when true');
    assert.ok(both.memories.some((m) => m.id === r.id));
  } finally {
    cleanup();
  }
});

test('readmemory pages exactly, with next and total, and errors on offsets inside a character or past the end', () => {
  const { store, cleanup } = tempStore();
  try {
    const body = 'é'.repeat(5000); // 10000 bytes
    const { id } = store.remember({ content: body, source: 'x'.repeat(300), scope: 'project', project: A });
    const p1 = store.read({ id, project: A, offset: 0 }).memory!;
    assert.equal(p1.total, 10000);
    assert.equal(Buffer.byteLength(p1.body), BUDGETS.lean.pageBytes);
    assert.equal(p1.next, BUDGETS.lean.pageBytes);
    assert.equal(p1.sourceabridged, true);
    assert.equal(Buffer.byteLength(p1.source), 240);
    let text = '';
    for (let off: number | null = 0; off !== null; ) {
      const page: { body: string; next: number | null } = store.read({ id, project: A, offset: off, budget: 'full' }).memory!;
      text += page.body;
      off = page.next;
    }
    assert.equal(text, body);
    assert.throws(() => store.read({ id, project: A, offset: 1 }), /inside a UTF-8 character/);
    assert.throws(() => store.read({ id, project: A, offset: 10001 }), /past the end/);
    assert.deepEqual(store.read({ id, project: B, offset: 0 }), { optimization: 'lean', memory: null });
    assert.deepEqual(store.read({ id: 4242, project: A, offset: 0, budget: 'full' }), { optimization: 'full', memory: null });
  } finally {
    cleanup();
  }
});

test('remember() refuses credentials with a message pointing to the vault, and never echoes the value', () => {
  const { store, cleanup } = tempStore();
  try {
    const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
    assert.throws(
      () => store.remember({ content: `The CI token is ${secret}`, source: 's', scope: 'project', project: A }),
      (err: Error) => err instanceof CredentialRefusedError && /vault/.test(err.message) && !err.message.includes(secret),
    );
    assert.equal(store.list({ all: true }).length, 0);
  } finally {
    cleanup();
  }
});

test('remember() and importRecords() scan the source and project too: a token there is refused and no project row is made', () => {
  const { store, cleanup } = tempStore();
  try {
    const token = 'ghp_' + 'Q9w8E7r6T5y4U3i2O1p0A9s8D7f6G5h4J3k2';
    const refused = (field: string) => (err: Error) =>
      err instanceof CredentialRefusedError && err.kind === 'GitHub token' && err.message.includes(`the ${field} field`) && /nothing was stored/.test(err.message) && !err.message.includes(token);
    assert.throws(() => store.remember({ content: 'Deploys run nightly.', source: `ci ${token}`, scope: 'project', project: A }), refused('source'));
    assert.throws(() => store.remember({ content: 'Deploys run nightly.', source: 'agent', scope: 'project', project: `/home/dev/${token}` }), refused('project'));
    // A zero-width space inside the token does not hide it.
    const split = `${token.slice(0, 10)}\u200b${token.slice(10)}`;
    assert.throws(() => store.remember({ content: `token ${split}`, source: 'agent', scope: 'project', project: A }), refused('content'));
    assert.equal(store.list({ all: true }).length, 0);
    assert.equal((store.db.prepare('SELECT count(*) AS n FROM projects').get() as { n: number }).n, 0, 'no project row for the refused path');
    const record = { id: 7, body: 'Deploys run nightly.', source: 'agent', scope: 'project' as const, project: `/srv/${token}`, created: 1, state: 'live' as const, supersededBy: null, changed: 1 };
    assert.throws(() => store.importRecords([record]), (err: Error) => refused('project')(err) && /^Cannot import memory 7:/.test(err.message));
    assert.equal(store.list({ all: true }).length, 0);
  } finally {
    cleanup();
  }
});

test('remember() of an identical live memory answers stored: false with the existing id', () => {
  const { store, cleanup } = tempStore();
  try {
    const first = store.remember({ content: 'Same fact.', source: 's', scope: 'project', project: A });
    assert.deepEqual(store.remember({ content: 'Same fact.', source: 's', scope: 'project', project: A }), { id: first.id, stored: false, superseded: [] });
    assert.equal(store.remember({ content: 'Same fact.', source: 's', scope: 'project', project: B }).stored, true, 'other project: stored');
  } finally {
    cleanup();
  }
});

test('forget(), restore() and show() keep and bring back hidden history', () => {
  const { store, cleanup } = tempStore();
  try {
    const v1 = store.remember({ content: 'Port is 3000.', source: 's', scope: 'project', project: A });
    const v2 = store.remember({ content: 'Port is 4000.', source: 's', scope: 'project', project: A, supersedes: [v1.id] });
    const shown = store.show(v2.id);
    assert.deepEqual(shown.history.map((h) => [h.id, h.state, h.supersededBy]), [[v1.id, 'superseded', v2.id]]);
    assert.equal(store.forget(v2.id).state, 'forgotten');
    assert.equal(store.recall({ query: 'port', project: A }).memories.length, 0);
    assert.equal(store.restore(v1.id).state, 'live');
    assert.deepEqual(store.recall({ query: 'port', project: A }).memories.map((m) => m.id), [v1.id]);
    assert.throws(() => store.show(999), NotFoundError);
  } finally {
    cleanup();
  }
});

test('exportAll() and importRecords() round-trip memories with their history, skipping duplicates', () => {
  const src = tempStore();
  const dst = tempStore();
  try {
    const v1 = src.store.remember({ content: 'Old rule.', source: 's', scope: 'project', project: A });
    src.store.remember({ content: 'New rule.', source: 's', scope: 'project', project: A, supersedes: [v1.id] });
    src.store.remember({ content: 'Everywhere rule.', source: 's', scope: 'global', project: B });
    const records = [...src.store.exportAll()];
    assert.deepEqual(dst.store.importRecords(records), { imported: 3, skipped: 0 });
    assert.deepEqual(dst.store.importRecords(records), { imported: 0, skipped: 3 });
    assert.deepEqual(dst.store.recall({ query: 'rule', project: A }).memories.map((m) => m.body).sort(), ['Everywhere rule.', 'New rule.']);
    const old = dst.store.list({ all: true }).find((m) => m.body === 'Old rule.')!;
    assert.equal(old.state, 'superseded');
    assert.equal(dst.store.list({ all: true }).find((m) => m.id === old.supersededBy)!.body, 'New rule.');
  } finally {
    src.cleanup();
    dst.cleanup();
  }
});

test('a refused remember for a new project leaves no dangling project id behind', () => {
  const { store, cleanup } = tempStore();
  try {
    assert.throws(() => store.remember({ content: 'x', source: 's', scope: 'project', project: '/fresh', supersedes: [12345] }), RangeError);
    assert.equal(store.remember({ content: 'y', source: 's', scope: 'project', project: '/fresh' }).stored, true);
    assert.deepEqual(store.db.pragma('foreign_key_check'), []);
  } finally {
    cleanup();
  }
});

test('recall() weighs rare terms above common ones, with and without a memory holding every term', () => {
  const { store, cleanup } = tempStore();
  try {
    for (let i = 0; i < 60; i++) store.remember({ content: `Common service note ${i} about the service layer.`, source: 's', scope: 'project', project: A });
    const rare = store.remember({ content: 'The flamingo cache sits behind the service.', source: 's', scope: 'project', project: A });
    for (let i = 0; i < 5; i++) store.remember({ content: `Newer service note ${i}.`, source: 's', scope: 'project', project: A });
    assert.equal(store.recall({ query: 'flamingo service', project: A }).memories[0]!.id, rare.id, 'all terms');
    assert.equal(store.recall({ query: 'flamingo service unicorn', project: A }).memories[0]!.id, rare.id, 'no memory holds every term');
    const common = store.recall({ query: 'service', project: A, limit: 3 }).memories.map((m) => m.body);
    assert.deepEqual(common, ['Newer service note 4.', 'Newer service note 3.', 'Newer service note 2.'], 'equal relevance: newest first');
  } finally {
    cleanup();
  }
});

test('recall() treats FTS syntax in a query as plain words', () => {
  const { store, cleanup } = tempStore();
  try {
    store.remember({ content: 'NEAR the column filter lives the OR operator.', source: 's', scope: 'project', project: A });
    for (const q of ['" OR * NEAR( ) col:x -- ;', 'body:near', '(((', '"unbalanced', 'AND OR NOT', '😀 中文 é']) {
      assert.doesNotThrow(() => store.recall({ query: q, project: A }), q);
    }
    assert.equal(store.recall({ query: 'column:filter', project: A }).memories.length, 1);
  } finally {
    cleanup();
  }
});
