// An update writes only what changed (#15): an edit whose relinked files read what they read before
// (here: a new exported constant nobody uses) leaves the link cache file as it was (same inode, same
// bytes), and the outputs still equal a full extract of the same tree byte for byte. An edit that
// changes what linking reads (an import of a file not read before) rewrites it, and the outputs equal a full extract too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import { assertSameOutputs, copyFixture } from './pipeline-fixture.ts';

const stamp = (file: string): string => {
  const st = statSync(file, { bigint: true });
  return `${st.ino}:${st.mtimeNs}:${st.size}`;
};

test('update: relinked files that read what they read before leave .link.cbor unwritten; outputs equal a full extract', async () => {
  const fx = copyFixture('synaptic-unchanged-');
  const out = join(fx.dir, '..', 'upd');
  const full = join(fx.dir, '..', 'full');
  try {
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    const linkCache = join(out, '.link.cbor');
    const before = stamp(linkCache);
    const bytes = readFileSync(linkCache);
    const file = join(fx.dir, 'src/context.ts');
    const original = readFileSync(file, 'utf8');

    writeFileSync(file, `${original}\nexport const synapticUnusedConstant = 1;\n`);
    const upd = await runExtract({ root: fx.dir, outDir: out, workers: 0, incremental: true });
    assert.equal(upd.linkMode, 'incremental', 'the edit is relinked incrementally');
    assert.ok(upd.relinked >= 1);
    assert.equal(stamp(linkCache), before, '.link.cbor was rewritten although no relinked file reads anything else');
    assert.ok(readFileSync(linkCache).equals(bytes));
    await runExtract({ root: fx.dir, outDir: full, workers: 0 });
    assertSameOutputs(out, full, 'unused constant');
    assert.ok(readFileSync(join(out, 'GRAPH_REPORT.md')).equals(readFileSync(join(full, 'GRAPH_REPORT.md'))), 'GRAPH_REPORT.md differs');

    // The next update still trusts the kept link cache: an import of a file app.ts did not read relinks incrementally.
    const target = join(fx.dir, 'src/app.ts');
    writeFileSync(target, `import { clamp } from './util/numbers';\n${readFileSync(target, 'utf8')}\nexport function synapticAddedCall(): number {\n  return clamp(1, 2, 3);\n}\n`);
    const again = await runExtract({ root: fx.dir, outDir: out, workers: 0, incremental: true });
    assert.equal(again.linkMode, 'incremental', 'the link cache kept by the previous update is still the graph state\'s');
    assert.notEqual(stamp(linkCache), before, 'an edit that changes what linking reads rewrites .link.cbor');
    rmSync(full, { recursive: true, force: true });
    await runExtract({ root: fx.dir, outDir: full, workers: 0 });
    assertSameOutputs(out, full, 'added call');
  } finally {
    fx.cleanup();
  }
});
