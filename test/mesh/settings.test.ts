import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_WORKER_LIMIT_SECONDS, readSettings, setSwitch, setWorkerCommand, settingsFile } from '../../src/skills/settings.ts';

test('readSettings() reads the mesh switches off by default and keeps only well-formed worker commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-mesh-settings-'));
  const env = { SYNAPTIC_DATA_DIR: dir };
  try {
    assert.deepEqual(readSettings(env), { learn: false, mesh: false, workers: false, workerCommands: {} });
    setSwitch('mesh', true, env);
    setWorkerCommand('review', { command: ['claude', '-p', '{prompt}'], limitSeconds: 900 }, env);
    const s = readSettings(env);
    assert.equal(s.mesh, true);
    assert.equal(s.workers, false, 'starting workers stays off until switched on');
    assert.deepEqual(s.workerCommands, { review: { command: ['claude', '-p', '{prompt}'], limitSeconds: 900 } });
    // A hand-edited file: bad entries are left out, a missing limit takes the default, other keys survive.
    writeFileSync(settingsFile(env), JSON.stringify({ mesh: true, other: 1, workerCommands: { a: { command: [] }, b: { command: [1] }, c: 'x', d: { command: ['true'] } } }));
    assert.deepEqual(readSettings(env).workerCommands, { d: { command: ['true'], limitSeconds: DEFAULT_WORKER_LIMIT_SECONDS } });
    setWorkerCommand('d', null, env);
    setSwitch('workers', true, env);
    const after = readSettings(env);
    assert.deepEqual([after.workers, after.workerCommands], [true, {}]);
    assert.equal(JSON.parse(readFileSync(settingsFile(env), 'utf8')).other, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
