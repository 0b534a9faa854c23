import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The package version from package.json (found from both src/ under tsx and dist/src/ compiled). */
export function packageVersion(): string {
  if (cached) return cached;
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'synaptic' && pkg.version) return (cached = pkg.version);
    } catch {
      // try the next candidate
    }
  }
  return (cached = '0.0.0');
}
