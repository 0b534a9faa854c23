import { packageVersion } from '../graph/package.node.ts';
import { FACTS_VERSION } from './facts.ts';

/**
 * What names an extraction's outputs, kept apart from the pipeline so that light callers (the
 * `update` client that hands its run to a watcher) can use them without loading the extractor.
 */

export const OUTPUT_DIR_NAME = 'synaptic-out';

/** Extractor version: package version + facts version (a change invalidates cached facts). */
export function extractorVersion(): string {
  return `synaptic-${packageVersion()}+facts${FACTS_VERSION}`;
}
