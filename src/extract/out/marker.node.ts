import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What marks a folder as Synaptic's output wherever it is (synaptic-out/ or any --out folder): a
 * graph.json next to a .manifest.json. The tool's own outputs are never source: walks, the
 * staleness check and `since` leave such folders out.
 */
export const OUTPUT_MARKERS: readonly string[] = ['graph.json', '.manifest.json'];

/** Whether a folder's entry names (as a test) include both markers. */
export function marksOutput(has: (name: string) => boolean): boolean {
  return OUTPUT_MARKERS.every(has);
}

/** Whether the folder at `absDir` holds Synaptic's outputs now. */
export function holdsOutputs(absDir: string): boolean {
  return marksOutput((name) => existsSync(join(absDir, name)));
}
