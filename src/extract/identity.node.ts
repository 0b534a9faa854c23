import { readFileSync } from 'node:fs';
import { FACTS_VERSION } from './facts.ts';

/**
 * What names an extraction's outputs, kept apart from the pipeline so that light callers (the
 * `update` client that hands its run to a watcher) can use them without loading the extractor.
 */

export const OUTPUT_DIR_NAME = 'synaptic-out';

/** Extractor version: package version + facts version (a change invalidates cached facts). */
export function extractorVersion(): string {
  let version = '0.0.0';
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'synaptic' && pkg.version) {
        version = pkg.version;
        break;
      }
    } catch {
      // try the next candidate
    }
  }
  return `synaptic-${version}+facts${FACTS_VERSION}`;
}
