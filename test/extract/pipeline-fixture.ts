/**
 * Helpers for tests that extract the fixture repository (test/fixtures/repo): a private temp copy
 * with the hygiene files re-created (a clean checkout lacks them: git ignores node_modules/, dist/,
 * .env and the fixture's own ignored files), so every run sees the same tree.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_REPO = fileURLToPath(new URL('../fixtures/repo/', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Files the fixture must contain for the hygiene checks: path -> content. */
export const HYGIENE_FILES: Record<string, string> = {
  '.env': 'API_KEY=fake-fixture-key-not-a-secret\nDB_PASSWORD=hunter2-fake\n',
  'keys/server.pem': '-----BEGIN FAKE PRIVATE KEY-----\nnot-a-real-key\n-----END FAKE PRIVATE KEY-----\n',
  'ignored.ts': 'export function ignoredHelper(): string {\n  return "ignored";\n}\n',
  'src/experimental/scratch.ts': 'export function scratchpad(): number {\n  return 42;\n}\n',
  'drafts/idea.ts': 'export function draft(): number {\n  return 1;\n}\n',
  'node_modules/leftpad/index.js': 'module.exports = function leftpad(s, n) {\n  return String(s).padStart(n);\n};\n',
  'dist/bundle.js': 'function bundled(){return 1}\nexport { bundled };\n',
};

/** Copy the fixture repo to a fresh temp folder (hygiene files ensured, mtimes of files and folders set an hour back). */
export function copyFixture(prefix = 'synaptic-fixture-'): { dir: string; cleanup: () => void } {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const dir = join(base, 'repo');
  cpSync(FIXTURE_REPO, dir, {
    recursive: true,
    filter: (src) => !src.includes(`${'/'}synaptic-out`),
  });
  for (const [path, content] of Object.entries(HYGIENE_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const past = new Date(Date.now() - 3600_000);
  const touch = (p: string): void => {
    for (const name of readdirSync(p)) {
      const abs = join(p, name);
      if (statSync(abs).isDirectory()) touch(abs);
      else utimesSync(abs, past, past);
    }
    utimesSync(p, past, past); // folders too: an update then trusts their saved listings
  };
  touch(dir);
  return { dir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** graph.json (with the differing lines on failure) and graph.cbor of `updOut` equal those of `fullOut`. */
export function assertSameOutputs(updOut: string, fullOut: string, context: string): void {
  const a = readFileSync(join(updOut, 'graph.json'), 'utf8');
  const b = readFileSync(join(fullOut, 'graph.json'), 'utf8');
  if (a !== b) {
    const la = a.split('\n');
    const lb = b.split('\n');
    assert.fail(`${context}: update differs from full extract\nonly in update: ${la.filter((l) => !lb.includes(l)).slice(0, 5).join('\n')}\nonly in full: ${lb.filter((l) => !la.includes(l)).slice(0, 5).join('\n')}`);
  }
  assert.ok(readFileSync(join(updOut, 'graph.cbor')).equals(readFileSync(join(fullOut, 'graph.cbor'))), `${context}: graph.cbor differs`);
}
