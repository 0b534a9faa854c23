/**
 * The check every recall fixture makes (#17): the calls + instantiates links that are not
 * AMBIGUOUS are exactly the pairs of the fixture's hand-checked truth.tsv.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractRepo } from '../../bench/accuracy/extract-repo.ts';

export async function assertMatchesTruth(fixture: string): Promise<void> {
  const truth = new Set(readFileSync(join(fixture, 'truth.tsv'), 'utf8').split('\n').filter(Boolean));
  const ex = await extractRepo(fixture);
  const ours = new Set<string>();
  for (const l of ex.result.links) {
    if ((l.relation === 'calls' || l.relation === 'instantiates') && l.confidence !== 'AMBIGUOUS') ours.add(`${l.source}\t${l.target}`);
  }
  assert.deepEqual([...truth].filter((p) => !ours.has(p)), [], 'missed calls');
  assert.deepEqual([...ours].filter((p) => !truth.has(p)), [], 'calls not in the truth');
}
