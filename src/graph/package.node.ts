import { readFileSync } from 'node:fs';

/**
 * Which npm package this is: the name it is published under (`npx -y synaptic-mcp serve`; the
 * command it installs stays `synaptic`) and its version, read from its own package.json.
 */

export const PACKAGE_NAME = 'synaptic-mcp';

let cached: string | undefined;

/**
 * The version in this package's package.json, or `0.0.0` when none is found. The file is two folders
 * up from this module as source (src/graph/) and as the bundle (dist/cli/, where every chunk sits),
 * three from the tsc build (dist/src/graph/); the name check skips a package.json that is not ours.
 */
export function packageVersion(): string {
  if (cached) return cached;
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && pkg.version) return (cached = pkg.version);
    } catch {
      // try the next candidate
    }
  }
  return (cached = '0.0.0');
}
