/**
 * The readiness audit's file access on Node: source files inside the source root (the get_source
 * jail's rule: the real path stays inside), and the project root's entries and small manifests for the metadata rules.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { ReadinessSource } from './audit.ts';
import type { ProjectFiles } from './metadata.ts';

/** Manifests larger than this are not read (a package.json is a few kB). */
const MAX_MANIFEST = 1 << 20;

/** The source for `readinessAudit`, or undefined when there is no source root. */
export function readinessSource(root: string | undefined, repo?: string): ReadinessSource | undefined {
  if (!root) return undefined;
  let base = root;
  if (repo) {
    // The member's folder, if it is one inside the root (a repo tag is a client's argument).
    try {
      base = realpathSync(resolve(root, repo));
      if (!base.startsWith(root.endsWith(sep) ? root : root + sep)) base = '';
    } catch {
      base = '';
    }
  }
  const inRoot = root.endsWith(sep) ? root : root + sep;
  const project: ProjectFiles | undefined = base && isDir(base) ? projectFiles(base) : undefined;
  return {
    readFile(file) {
      // The get_source jail without its line cache (an audit reads every file once): the real path
      // must stay inside the root.
      try {
        const real = realpathSync.native(resolve(root, file));
        if (!real.startsWith(inRoot)) return undefined;
        return readFileSync(real, 'utf8');
      } catch {
        return undefined;
      }
    },
    ...(project ? { project } : {}),
  };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function projectFiles(base: string): ProjectFiles {
  return {
    list(dir) {
      try {
        return readdirSync(join(base, dir));
      } catch {
        return [];
      }
    },
    read(path) {
      try {
        const p = join(base, path);
        if (statSync(p).size > MAX_MANIFEST) return undefined;
        return readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}
