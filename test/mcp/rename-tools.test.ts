import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI_ARGS, ROOT, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

// predict_edit, plan_rename and synaptic refactor verify end to end: a real extract of the two-language
// fixture (test/fixtures/rename), the SDK client over a real stdio child, the plan applied by a script,
// then the real CLI verifies and the real grep -w looks for the old name.
// Speed: the bad-usage checks (which read nothing the edits change) run while the tools and the
// applied plan are checked in sequence on the one tree, and independent CLI runs start at once.

interface Site {
  file: string;
  line: number;
  col: number;
  old: string;
  to: string;
}

let dir: string;
let repo: string;
let sdk: Awaited<ReturnType<typeof connectSdk>>;

function extract(into: string): void {
  cpSync(join(ROOT, 'test/fixtures/rename'), into, { recursive: true });
  execFileSync(process.execPath, [...CLI_ARGS, 'extract', into], { stdio: ['ignore', 'ignore', 'pipe'] });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'synaptic-rename-'));
  repo = join(dir, 'repo');
  extract(repo);
  // --no-freshen: the graph stays the pre-edit one while the test edits the tree (the baseline verify compares with).
  sdk = await connectSdk(join(repo, 'synaptic-out/graph.json'), { ...(process.env as Record<string, string>), SYNAPTIC_DATA_DIR: join(dir, 'data') }, { serve: ['--no-freshen'] });
});

after(async () => {
  await sdk?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = (await sdk.client.callTool({ name, arguments: args })) as { isError?: boolean };
  return { text: text(r), isError: r.isError === true };
}

/** The sites of a plan's text section (`  file:line:col old -> new (reason, conf)`); sites without a column are skipped. */
function sitesOf(plan: string, section: 'Edits' | 'Review'): Site[] {
  const lines = plan.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${section} (`));
  assert.ok(start >= 0, `no ${section} section in:\n${plan}`);
  const out: Site[] = [];
  for (const l of lines.slice(start + 1)) {
    if (!l.startsWith('  ')) break;
    const m = /^ {2}(.+?):(\d+):(\d+) (\S+) -> (\S+) \(/.exec(l);
    if (m) out.push({ file: m[1]!, line: Number(m[2]), col: Number(m[3]), old: m[4]!, to: m[5]! });
  }
  return out;
}

/** Apply sites as an agent's script would: right to left within a line, each checked to hold the old name. */
function apply(root: string, sites: Site[]): void {
  const byFile = new Map<string, Site[]>();
  for (const s of sites) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
  for (const [file, list] of byFile) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (const s of [...list].sort((a, b) => b.line - a.line || b.col - a.col)) {
      const line = lines[s.line - 1]!;
      assert.equal(line.slice(s.col - 1, s.col - 1 + s.old.length), s.old, `${file}:${s.line}:${s.col} should hold ${s.old}: ${line}`);
      lines[s.line - 1] = line.slice(0, s.col - 1) + s.to + line.slice(s.col - 1 + s.old.length);
    }
    writeFileSync(join(root, file), lines.join('\n'));
  }
}

/** `file:line` of every line the real grep -w finds the name on, in the code files (the outputs excluded). */
function grepW(root: string, name: string): string[] {
  const r = spawnSync('grep', ['-rnw', '--include=*.ts', '--include=*.py', '--exclude-dir=synaptic-out', name, '.'], { cwd: root, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `grep failed: ${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean).map((l) => l.replace(/^\.\//, '').split(':').slice(0, 2).join(':')).sort();
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The real CLI, without blocking the other checks running meanwhile. */
function run(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...CLI_ARGS, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

function verify(root: string, ...args: string[]): Promise<Run> {
  return run('refactor', 'verify', ...args, root);
}

/** The bad-usage runs, which read the pre-edit graph: the update waits for them. */
let badUsage: Promise<unknown> = Promise.resolve();

describe('rename tools', { concurrency: true }, () => {
  test('refactor verify and refactor plan refuse bad usage (exit 2)', async () => {
    const cases = [
      [['computeTotal', 'computeTotal'], /<new> is the same name as <old>/],
      [['computeTotal', 'grand-total'], /<new> 'grand-total' is not an identifier/],
      [['noSuchSymbol', 'x'], /no symbol named 'noSuchSymbol' \(or 'x'\)/],
      [['describe', 'summarize'], /2 symbols are named 'describe'; pass --file <path substring> or one of:\n {2}--id 'py\/shop\/orders\.py#describe'/],
    ] as const;
    const runs = Promise.all([
      Promise.all(cases.map(([args]) => verify(repo, ...args))),
      run('refactor', 'verify', 'a', 'b', join(dir, 'no-such-dir')),
      run('refactor', 'apply'),
      run('refactor', 'plan', 'computeTotal', 'computeTotal', '--graph', join(repo, 'synaptic-out/graph.json')),
    ]);
    badUsage = runs;
    const [bads, nowhere, sub, cliBad] = await runs;
    cases.forEach(([, message], i) => {
      const bad = bads[i]!;
      assert.equal(bad.status, 2, bad.stdout + bad.stderr);
      assert.match(bad.stderr, message);
    });
    assert.equal(nowhere.status, 2);
    assert.equal(sub.status, 2);
    assert.match(sub.stderr, /unknown subcommand 'apply' \(plan or verify\)/);
    assert.equal(cliBad.status, 1);
    assert.match(cliBad.stderr, /'to' is the current name/);
  });

  test('the tools, then the plan applied and verified (in sequence on one tree)', async (t) => {
    await t.test('tools/list carries predict_edit and plan_rename, read-only and closed-world', async () => {
      const { tools } = await sdk.client.listTools();
      for (const name of ['predict_edit', 'plan_rename']) {
        const tool = tools.find((t) => t.name === name);
        assert.ok(tool, `${name} is listed`);
        assert.deepEqual(tool.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      }
      const predict = tools.find((t) => t.name === 'predict_edit')!;
      assert.deepEqual((predict.inputSchema.properties as Record<string, { enum?: string[] }>).kind!.enum, ['delete', 'signature', 'visibility']);
      assert.deepEqual(predict.inputSchema.required, ['symbol', 'kind']);
      assert.deepEqual(tools.find((t) => t.name === 'plan_rename')!.inputSchema.required, ['name', 'to']);
    });

    await t.test('predict_edit: will break and review with by-depth rollups and reasons; bad kind and unknown symbol', async () => {
      const del = await call('predict_edit', { symbol: 'computeTotal', kind: 'delete' });
      assert.equal(del.isError, false);
      assert.match(del.text, /^predict_edit delete computeTotal \[function\] ts\/src\/pricing\.ts:L8 \(<= 3 hops\): \d+ will break, 0 to review/);
      assert.match(del.text, /\nWill break \(\d+; 1h: \d+, 2h: \d+/);
      assert.match(del.text, /\n {2}\[1h\] calls: Cart\.total \[method\] ts\/src\/cart\.ts:L\d+ -- calls computeTotal, which is deleted/);
      assert.match(del.text, /\n {2}\[2h\] calls: describe \[function\] ts\/src\/cart\.ts:L\d+ -- depends on Cart\.total, which breaks/);
      const sig = await call('predict_edit', { symbol: 'computeTotal', kind: 'signature', limit: 1 });
      assert.match(sig.text, /\nReview \(\d+; 1h: \d+/);
      assert.match(sig.text, /imports computeTotal but does not use it here/);
      assert.match(sig.text, /\n {2}\+\d+ more \(pass verbose=true or a larger limit\)/);
      const vis = await call('predict_edit', { symbol: 'Inventory', kind: 'visibility', verbose: true });
      assert.match(vis.text, /\[1h\] imports_from: orders\.py \[file\] py\/shop\/orders\.py:L1 -- imports Inventory from another file: a private Inventory is out of its reach/);
      const bad = await call('predict_edit', { symbol: 'computeTotal', kind: 'rename' });
      assert.equal(bad.isError, true);
      assert.match(bad.text, /Cannot run predict_edit: invalid arguments: kind: .*delete.*signature.*visibility/);
      const unknown = await call('predict_edit', { symbol: 'noSuchSymbolAnywhere', kind: 'delete' });
      assert.match(unknown.text, /^No node matches 'noSuchSymbolAnywhere'/);
    });

    await t.test('plan_rename: bad input gets a clear answer (unknown, ambiguous with candidates, same name, not an identifier)', async () => {
      const unknown = await call('plan_rename', { name: 'noSuchSymbolAnywhere', to: 'x' });
      assert.match(unknown.text, /^No node matches 'noSuchSymbolAnywhere'/);
      const ambiguous = await call('plan_rename', { name: 'describe', to: 'summarize' });
      assert.match(ambiguous.text, /^'describe' is ambiguous: 2 nodes match/);
      assert.match(ambiguous.text, /describe@py\/shop\/orders\.py {2}\[function\] degree \d+/);
      assert.match(ambiguous.text, /describe@ts\/src\/cart\.ts {2}\[function\] degree \d+/);
      const pinned = await call('plan_rename', { name: 'describe', to: 'summarize', file: 'orders.py' });
      assert.match(pinned.text, /^Rename describe -> summarize \[\w+\], 1 edit\(s\) across 1 file\(s\)/);
      assert.match(pinned.text, /\n {2}py\/shop\/orders\.py:15:5 describe -> summarize \(definition, 1\.00\)/);
      const byId = await call('plan_rename', { name: 'describe', to: 'summarize', id: 'ts/src/cart.ts#describe' });
      assert.match(byId.text, /ts\/src\/cart\.ts:21:17 describe -> summarize \(definition, 1\.00\)/);
      assert.match(byId.text, /ts\/src\/index\.ts:2:16 describe -> summarize \(import, 0\.95\)/);
      const same = await call('plan_rename', { name: 'computeTotal', to: 'computeTotal' });
      assert.equal(same.isError, true);
      assert.match(same.text, /'to' is the current name/);
      const notIdent = await call('plan_rename', { name: 'computeTotal', to: 'grand-total' });
      assert.equal(notIdent.isError, true);
      assert.match(notIdent.text, /'grand-total': not an identifier in typescript/);
      // A rename needs the symbol itself, not a guess from part of its name.
      const guess = await call('plan_rename', { name: 'new_sto', to: 'x' });
      assert.match(guess.text, /^No symbol named 'new_sto' \(closest: new_stock@py\/shop\/orders\.py; pass its exact name\)\.$/);
    });

    await t.test('plan_rename -> apply with a script -> refactor verify passes and grep -w finds no old name (TypeScript and Python)', async () => {
      const renames = [['computeTotal', 'grandTotal'], ['Inventory', 'Stockroom']] as const;
      const plans = new Map<string, string>();
      for (const [old, to] of renames) {
        const plan = await call('plan_rename', { name: old, to, verbose: true });
        assert.equal(plan.isError, false, plan.text);
        assert.match(plan.text, new RegExp(`^Rename ${old} -> ${to} \\[(high|medium|low)\\], \\d+ edit\\(s\\) across \\d+ file\\(s\\), \\d+ to review, \\d+ affected`));
        plans.set(old, plan.text);
      }
      // The CLI form runs the same handler: the same text, and --out writes it as plan.md.
      const cli = await run('refactor', 'plan', 'computeTotal', 'grandTotal', '--graph', join(repo, 'synaptic-out/graph.json'), '--out', join(dir, 'plan.md'));
      assert.equal(cli.status, 0, cli.stderr);
      assert.equal(cli.stdout, `${plans.get('computeTotal')}\n`);
      assert.equal(readFileSync(join(dir, 'plan.md'), 'utf8'), `# Rename plan\n\n\`\`\`\n${plans.get('computeTotal')}\n\`\`\`\n`);
      const ts = plans.get('computeTotal')!;
      // The definition, an import, a re-export, a namespace call and both calls of one method, at exact columns.
      for (const site of ['ts/src/pricing.ts:8:17 computeTotal -> grandTotal (definition, 1.00)', 'ts/src/cart.ts:1:10 computeTotal -> grandTotal (import, 0.95)',
        'ts/src/index.ts:1:10 computeTotal -> grandTotal (import, 0.95)', 'ts/src/checkout.ts:5:23 computeTotal -> grandTotal (call, 0.95)',
        'ts/src/cart.ts:16:19 computeTotal -> grandTotal (call, 0.95)', 'ts/src/cart.ts:17:20 computeTotal -> grandTotal (use in a file that refers to computeTotal, 0.80)']) {
        assert.ok(ts.includes(`\n  ${site}`), `${site} in:\n${ts}`);
      }
      assert.ok(ts.includes('\n  ts/src/pricing.ts:1:25 computeTotal -> grandTotal (in a comment, 0.20)'), ts);
      assert.ok(plans.get('Inventory')!.includes('\n  py/shop/orders.py:12:12 Inventory -> Stockroom (call, 0.95)'), plans.get('Inventory'));

      // Edits only: whatever grep -w still finds is listed under Review (the plan misses nothing).
      for (const [old] of renames) apply(repo, sitesOf(plans.get(old)!, 'Edits'));
      for (const [old] of renames) {
        const review = new Set(sitesOf(plans.get(old)!, 'Review').map((s) => `${s.file}:${s.line}`));
        const left = grepW(repo, old);
        assert.ok(left.length > 0, 'comments and strings are left');
        for (const hit of left) assert.ok(review.has(hit), `${hit} (grep -w ${old}) is in the plan's Review list`);
      }
      // One call put back: verify fails and names it (exit 1).
      const cart = join(repo, 'ts/src/cart.ts');
      writeFileSync(cart, readFileSync(cart, 'utf8').replace('return grandTotal(this.items);', 'return computeTotal(this.items);'));
      const [partial, json] = await Promise.all([verify(repo, 'computeTotal', 'grandTotal'), run('refactor', 'verify', 'computeTotal', 'grandTotal', repo, '--json')]);
      assert.equal(partial.status, 1, partial.stdout + partial.stderr);
      assert.match(partial.stdout, /\n {2}FAIL 1 code reference\(s\) to 'computeTotal' left \(dangling\)\n +ts\/src\/cart\.ts:11:12\n/);
      assert.match(partial.stdout, /\n {2}FAIL edges changed beyond the rename\n +the graph has 76 edges, 77 before\n +grandTotal in calls: \d+, computeTotal had \d+\n/);
      assert.match(partial.stdout, /\nFAIL\n$/);
      assert.equal(json.status, 1);
      assert.deepEqual((JSON.parse(json.stdout) as { checks: Array<{ ok: boolean }> }).checks.map((c) => c.ok), [true, false, false]);

      // The whole plan, edits and accepted review sites applied in one pass (columns are the pre-edit text's).
      for (const f of ['ts/src/pricing.ts', 'ts/src/cart.ts', 'ts/src/checkout.ts', 'ts/src/index.ts', 'ts/test/pricing.spec.ts', 'py/shop/inventory.py', 'py/shop/orders.py', 'py/shop/__init__.py', 'py/tests/test_orders.py']) {
        cpSync(join(ROOT, 'test/fixtures/rename', f), join(repo, f));
      }
      for (const [old] of renames) apply(repo, [...sitesOf(plans.get(old)!, 'Edits'), ...sitesOf(plans.get(old)!, 'Review')]);
      const verified = await Promise.all(renames.map(([old, to]) => verify(repo, old, to)));
      for (const [i, [old, to]] of renames.entries()) {
        assert.deepEqual(grepW(repo, old), [], `grep -w ${old}`);
        const r = verified[i]!;
        assert.equal(r.status, 0, r.stdout + r.stderr);
        assert.match(r.stdout, new RegExp(`^refactor verify: ${old} -> ${to}\\n {2}ok {3}definition renamed: \\S+#${to}\\n {2}ok {3}no code reference to '${old}' left \\(\\d+ code file\\(s\\) scanned\\)\\n {2}ok {3}edges: \\d+ before and after; the renamed symbol keeps its \\d+ edge\\(s\\)\\nPASS\\n$`));
      }
    });

    await t.test('once the graph itself is updated, refactor verify still checks names and leftovers', async () => {
      await badUsage; // they read the graph this update rewrites
      // As a serving server keeps synaptic-out fresh: the graph now holds grandTotal and no computeTotal.
      execFileSync(process.execPath, [...CLI_ARGS, 'update', repo], { stdio: ['ignore', 'ignore', 'pipe'] });
      const late = await verify(repo, 'computeTotal', 'grandTotal');
      assert.equal(late.status, 0, late.stdout + late.stderr);
      assert.match(late.stdout, /\n {2}ok {3}definition renamed: ts\/src\/pricing\.ts#grandTotal\n {2}ok {3}no code reference to 'computeTotal' left/);
      assert.match(late.stdout, /\n {2}ok {3}edges: not compared\n +the graph was updated after the edit/);
      const cart = join(repo, 'ts/src/cart.ts');
      writeFileSync(cart, readFileSync(cart, 'utf8').replace('return gross - grandTotal(this.items);', 'return gross - computeTotal(this.items);'));
      const broken = await verify(repo, 'computeTotal', 'grandTotal');
      assert.equal(broken.status, 1, broken.stdout);
      assert.match(broken.stdout, /FAIL 1 code reference\(s\) to 'computeTotal' left \(dangling\)\n +ts\/src\/cart\.ts:17:20\n/);
    });
  });
});
