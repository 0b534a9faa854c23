import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertSameOutputs, copyFixture, REPO_ROOT } from './pipeline-fixture.ts';
import { runExtract, warmResident } from '../../src/extract/pipeline.node.ts';
import { ResidentOutputs } from '../../src/extract/resident.node.ts';
import { askWatcher, pingWatcher, residentLogPath, serveWatchSocket, watchSocketPath } from '../../src/extract/watch-socket.node.ts';
import { extractorVersion } from '../../src/extract/identity.node.ts';
import { residentIdleMinutes, residentWanted } from '../../src/cli/commands/update-resident.ts';

// The background updater (`synaptic update --resident`) that a one-shot `synaptic update` starts on a
// large repository; forced here with SYNAPTIC_RESIDENT=1 (the fixture is small).
const CLI = join(REPO_ROOT, 'dist/cli/main.js');
const skip = !existsSync(CLI) && 'dist/ not built (npm run build)';

function synaptic(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

/** The pid answering on the update socket of `out`, waiting up to ~10 s for one (0: none came). */
async function answeringPid(out: string): Promise<number> {
  for (let t = 0; t < 200; t++) {
    const pid = await pingWatcher(out, 500);
    if (pid !== null) return pid;
    await new Promise((r) => setTimeout(r, 50));
  }
  return 0;
}

function sameOutputs(out: string, full: string, what: string): void {
  for (const f of ['graph.json', 'graph.cbor', 'GRAPH_REPORT.md']) {
    assert.ok(readFileSync(join(out, f)).equals(readFileSync(join(full, f))), `${f} after ${what} equals a full extract`);
  }
}

test('residentWanted: off under SYNAPTIC_RESIDENT=0 and CI, forced by 1, else only for a graph.cbor of 4 MB or more', () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-resident-want-'));
  try {
    assert.equal(residentWanted(dir, {}), false, 'no previous graph: no updater');
    assert.equal(residentWanted(dir, { SYNAPTIC_RESIDENT: '1' }), true, 'forced');
    writeFileSync(join(dir, 'graph.cbor'), 'small');
    assert.equal(residentWanted(dir, {}), false, 'a small graph updates fast in a fresh process');
    truncateSync(join(dir, 'graph.cbor'), 5 << 20);
    assert.equal(residentWanted(dir, {}), true, 'a large graph starts one');
    assert.equal(residentWanted(dir, { CI: 'true' }), false, 'not under CI');
    assert.equal(residentWanted(dir, { CI: 'false' }), true, 'CI=false is not CI');
    assert.equal(residentWanted(dir, { SYNAPTIC_RESIDENT: 'off' }), false, 'turned off');
    assert.equal(residentIdleMinutes({}), 30, 'default idle time');
    assert.equal(residentIdleMinutes({ SYNAPTIC_RESIDENT_IDLE_MINUTES: '2.5' }), 2.5, 'idle time from the environment');
    assert.equal(residentIdleMinutes({ SYNAPTIC_RESIDENT_IDLE_MINUTES: 'soon' }), 30, 'a bad value keeps the default');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('warmResident reads every output an update reads: the next update (a line shift, then a relink) reads nothing from disk and equals a full extract', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out-warm');
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    const edits = [
      ['src/core/router.ts', (t: string) => `\n\n${t}`, 'positions'],
      ['src/util/strings.ts', (t: string) => `${t}\nexport function warmed(): string {\n  return normalizePath('/w');\n}\n`, 'incremental'],
    ] as const;
    for (const [k, edit, mode] of edits) {
      // A fresh process's memory, warmed from the files on disk (as a background updater does when idle).
      const resident = new ResidentOutputs();
      let steps = 0;
      for (const _ of warmResident(out, resident, undefined, { root: fx.dir })) steps++;
      assert.ok(steps > 256, `one step per facts shard at least (${steps})`);
      // The warm-up walked: every kept folder listing the walk trusts (unchanged since it was read,
      // and older than 2 s then) has its plan, so the update's walk only stats the files.
      const listings = resident.read(join(out, '.walk.cbor'), () => null) as { scannedAtMs: number; listings: Map<string, { mtimeMs: number; plan?: unknown }> } | null;
      assert.ok(listings && listings.listings.size > 3, 'folder listings kept');
      const trusted = [...listings.listings].filter(([rel, l]) => l.mtimeMs < listings.scannedAtMs - 2000 && statSync(join(fx.dir, rel)).mtimeMs === l.mtimeMs);
      assert.ok(trusted.length > 0, 'some listings are old enough to trust');
      assert.ok(trusted.every(([, l]) => l.plan), `each trusted listing planned by the warm-up walk: ${trusted.filter(([, l]) => !l.plan).map(([rel]) => rel).join(' ')}`);
      const loaded = resident.counts.loaded;
      const abs = join(fx.dir, k);
      writeFileSync(abs, edit(readFileSync(abs, 'utf8')));
      const upd = await runExtract({ root: fx.dir, outDir: out, workers: 0, incremental: true, resident });
      assert.equal(upd.linkMode, mode, `the edit of ${k} takes the ${mode} path`);
      assert.equal(resident.counts.loaded, loaded, `the update after editing ${k} read its previous outputs from memory: ${JSON.stringify(resident.counts)}`);
      const full = join(fx.dir, 'out-full');
      await runExtract({ root: fx.dir, outDir: full, workers: 0 });
      assertSameOutputs(out, full, `editing ${k} after a warm-up`);
      rmSync(full, { recursive: true });
    }
  } finally {
    fx.cleanup();
  }
});

test('update --resident and --idle-exit reject bad combinations with exit code 2', { skip }, () => {
  const fx = copyFixture();
  try {
    for (const [args, pattern] of [
      [['--resident', '--watch'], /--resident excludes --watch and --no-watcher/],
      [['--resident', '--no-watcher'], /--resident excludes --watch and --no-watcher/],
      [['--idle-exit', '5'], /--idle-exit needs --resident/],
      [['--replace'], /--replace needs --resident/],
      [['--resident', '--idle-exit', '0'], /Cannot parse --idle-exit: expected minutes \(> 0\), got '0'/],
    ] as const) {
      const r = synaptic(['update', fx.dir, ...args]);
      assert.equal(r.code, 2, `exit code 2 for ${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
    }
  } finally {
    fx.cleanup();
  }
});

test('a one-shot update starts a background updater that answers the next ones (outputs equal a full extract); a watcher takes the folder over', { skip, timeout: 120_000 }, async () => {
  const fx = copyFixture();
  const out = join(fx.dir, 'out-resident');
  const full = join(fx.dir, 'out-full');
  const env = { SYNAPTIC_RESIDENT: '1' };
  let resident = 0;
  let watcher: ReturnType<typeof spawn> | null = null;
  try {
    assert.equal(synaptic(['extract', fx.dir, '--out', out]).code, 0);
    const edits = [
      ['src/util/strings.ts', (t: string) => `${t}\nexport function resident1(): string {\n  return normalizePath('/r');\n}\n`],
      ['src/core/router.ts', (t: string) => `\n\n${t}`],
      ['src/util/strings.ts', (t: string) => t.replace('resident1', 'resident2')],
    ] as const;
    for (const [n, [k, edit]] of edits.entries()) {
      const abs = join(fx.dir, k);
      writeFileSync(abs, edit(readFileSync(abs, 'utf8')));
      const r = synaptic(['update', fx.dir, '--out', out, '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout) as { watcherPid?: number; parsed: number };
      assert.equal(s.parsed, 1, `the edit of ${k} was seen`);
      if (n === 0) {
        // Nothing kept the folder: this update ran in the command's process, which then started the updater.
        assert.equal(s.watcherPid, undefined, 'the first update is the command\'s own');
        resident = await answeringPid(out);
        assert.ok(resident > 0, 'a background updater answers for the folder after the first update');
      } else {
        assert.equal(s.watcherPid, resident, `the update after editing ${k} was handed to the background updater`);
        assert.ok(alive(resident), 'the background updater stays after the command exits');
      }
      assert.equal(synaptic(['extract', fx.dir, '--out', full]).code, 0);
      sameOutputs(out, full, `editing ${k}`);
      rmSync(full, { recursive: true });
    }
    assert.match(readFileSync(residentLogPath(out), 'utf8'), new RegExp(`background updater ${resident} answers`), 'it logs beside its socket');
    const own = JSON.parse(synaptic(['update', fx.dir, '--out', out, '--json', '--no-watcher'], env).stdout) as { watcherPid?: number };
    assert.equal(own.watcherPid, undefined, '--no-watcher updates in its own process');
    // An `update --watch` of the folder asks the background updater to retire and answers instead.
    watcher = spawn(process.execPath, [CLI, 'update', fx.dir, '--out', out, '--watch', '--poll', '3600000'], { stdio: ['ignore', 'ignore', 'pipe'] });
    assert.ok(await gone(resident, 20_000), 'the background updater retires when a watcher starts');
    const answering = await answeringPid(out);
    assert.ok(answering > 0 && answering !== resident, 'the watcher took the socket');
    const byWatcher = JSON.parse(synaptic(['update', fx.dir, '--out', out, '--json'], env).stdout) as { watcherPid?: number };
    assert.equal(byWatcher.watcherPid, answering, 'the next update is the watcher\'s');
    // (SIGINT: the watcher runs in a child of the spawned process, which passes it on)
    const exited = new Promise<number | null>((resolve) => watcher!.once('exit', (code) => resolve(code)));
    watcher.kill('SIGINT');
    assert.equal(await exited, 0, 'the watcher stops on SIGINT');
    watcher = null;
  } finally {
    if (resident && alive(resident)) process.kill(resident, 'SIGKILL');
    if (watcher) {
      watcher.kill('SIGINT');
      setTimeout(() => watcher?.kill('SIGKILL'), 5000).unref();
    }
    fx.cleanup();
  }
});

test('an extract starts the background updater too (replacing one already there): the first update after it is already the updater\'s', { skip, timeout: 60_000 }, async () => {
  const fx = copyFixture();
  const out = join(fx.dir, 'out-extract');
  const full = join(fx.dir, 'out-full');
  let resident = 0;
  let first = 0;
  try {
    assert.equal(synaptic(['extract', fx.dir, '--out', out], { SYNAPTIC_RESIDENT: '1' }).code, 0);
    first = await answeringPid(out);
    assert.ok(first > 0, 'a background updater answers for the folder after the extract');
    // Extracting again: the updater there keeps the outputs this extract replaces; a new one takes over.
    assert.equal(synaptic(['extract', fx.dir, '--out', out], { SYNAPTIC_RESIDENT: '1' }).code, 0);
    assert.ok(await gone(first, 20_000), 'the updater of the previous extract retires');
    resident = await answeringPid(out);
    assert.ok(resident > 0 && resident !== first, 'the updater of the new extract answers for the folder');
    const abs = join(fx.dir, 'src/util/strings.ts');
    writeFileSync(abs, `${readFileSync(abs, 'utf8')}\nexport function afterExtract(): string {\n  return normalizePath('/e');\n}\n`);
    const r = synaptic(['update', fx.dir, '--out', out, '--json'], { SYNAPTIC_RESIDENT: '1' });
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout) as { watcherPid?: number; parsed: number };
    assert.equal(s.watcherPid, resident, 'the first update was handed to the updater the extract started');
    assert.equal(s.parsed, 1, 'the edit was seen');
    assert.equal(synaptic(['extract', fx.dir, '--out', full], { SYNAPTIC_RESIDENT: '0' }).code, 0);
    sameOutputs(out, full, 'the first update');
    assert.equal(await pingWatcher(full, 500), null, 'SYNAPTIC_RESIDENT=0: no updater for that extract');
  } finally {
    for (const pid of [first, resident]) if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    fx.cleanup();
  }
});

test('update --resident exits after its idle time, and at once on a request from another extractor version', { skip, timeout: 60_000 }, async () => {
  const fx = copyFixture();
  const out = join(fx.dir, 'out-idle');
  try {
    assert.equal(synaptic(['extract', fx.dir, '--out', out]).code, 0);
    const start = (idle: string): Promise<ReturnType<typeof spawn>> => new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'update', fx.dir, '--out', out, '--resident', '--idle-exit', idle], { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (d: string) => {
        if (d.includes('answers')) resolve(child);
      });
      child.once('exit', (code) => reject(new Error(`the background updater exited early (${code})`)));
    });
    const exitOf = (child: ReturnType<typeof spawn>): Promise<number | null> => new Promise((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
    // 0.02 min = 1.2 s without requests.
    const idle = await start('0.02');
    const t0 = Date.now();
    assert.equal(await pingWatcher(out), idle.pid, 'it answers for the folder');
    assert.equal(await exitOf(idle), 0, 'it exits with 0 when idle');
    assert.ok(Date.now() - t0 < 15_000, 'within its idle time (and some)');
    assert.ok(!existsSync(watchSocketPath(out)), 'its socket is gone');

    const other = await start('30');
    const reply = await askWatcher({ op: 'update', version: `${extractorVersion()}-other`, root: fx.dir, outDir: out, maxFileSize: null });
    assert.ok(reply && !reply.ok && reply.declined, 'a request from another version is declined');
    assert.equal(await exitOf(other), 0, 'and the updater of the old version steps aside');
  } finally {
    fx.cleanup();
  }
});

test('when a background updater fails an update, the command updates in its own process', { skip, timeout: 60_000 }, async () => {
  const fx = copyFixture();
  const out = join(fx.dir, 'out-failing');
  try {
    assert.equal(synaptic(['extract', fx.dir, '--out', out]).code, 0);
    // A stand-in for a background updater that fails every request.
    let asked = 0;
    const failing = await serveWatchSocket(out, async () => {
      asked++;
      return { ok: false, error: 'Cannot update: out of memory', declined: false, by: 'resident' };
    });
    assert.ok(failing.serving, 'the stand-in serves the folder');
    try {
      writeFileSync(join(fx.dir, 'src/core/router.ts'), `\n${readFileSync(join(fx.dir, 'src/core/router.ts'), 'utf8')}`);
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'update', fx.dir, '--out', out, '--json'], { env: { ...process.env, SYNAPTIC_RESIDENT: '0' } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      });
      assert.equal(asked, 1, 'the command asked the background updater first');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /background updater could not update \(Cannot update: out of memory\); updating in this process/);
      const s = JSON.parse(r.stdout) as { watcherPid?: number; parsed: number };
      assert.equal(s.watcherPid, undefined, 'the update ran in the command\'s process');
      assert.equal(s.parsed, 1, 'and saw the edit');
    } finally {
      await failing.close();
    }
  } finally {
    fx.cleanup();
  }
});
