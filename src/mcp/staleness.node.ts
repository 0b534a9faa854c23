/**
 * The staleness check behind auto-freshen (Freshener, freshen.ts): does the source tree still match
 * the outputs of the last extraction? Two parts, both plain stats:
 * - every extracted file's size and mtime against the manifest (an edited or deleted file);
 * - every folder the last walk listed (.walk.cbor) against the mtime it had then: a folder whose mtime
 *   moved gained or lost entries, so it is read again and its names compared with the ones last seen
 *   (an added source file, a new folder, a removed .gitignore). Names that cannot change the graph
 *   (an editor's swap file) are noted and ignored.
 * Without readable listings (outputs of an older version) the folders are the ones holding
 * extracted files, and the first walk's reading is their baseline.
 * The check remembers what it saw, so one change is reported once even when the update it starts
 * changes nothing (an added file the ignore rules exclude).
 */
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { languageForPath } from '../extract/languages.ts';
import { OutputFolder } from '../extract/out/folder.node.ts';
import { marksOutput } from '../extract/out/marker.node.ts';
import { CONTEXT_FILE_NAMES } from '../extract/project-context.ts';
import { IGNORE_FILES, SKIPPED_DIRS, type DirListing } from '../extract/walk.node.ts';
import { parseManifest } from '../graph/manifest.ts';

/** Stats between two yields of {@link StalenessCheck.walk} (a main-thread walk yields to the event loop there, ~1-2 ms). */
export const STAT_CHUNK = 200;

/** A listing this close to its walk's start may have missed a same-tick change (the scan's own slack). */
const RACY_MS = 2000;

/** Entry kinds as DirListing records them: 1 folder, 2 file, 3 symbolic link, 0 anything else. */
type Kinds = Map<string, number>;

interface Folder {
  /** Repo-relative, '' for the root. */
  rel: string;
  /** The mtime last seen; NaN when the folder must be read on the next walk. */
  mtimeMs: number;
  /** Entry names and kinds last seen; null before the first reading (no listing to compare with). */
  names: Kinds | null;
  /** The walk's listing, turned into `names` only when the folder is read. */
  listing?: DirListing;
}

const CONTEXT_NAMES: ReadonlySet<string> = new Set([...CONTEXT_FILE_NAMES, ...IGNORE_FILES]);

/** Whether an entry can change what an extraction reads: a folder it would enter, a source, config or ignore file. */
function matters(name: string, kind: number): boolean {
  if (kind === 1) return !SKIPPED_DIRS.has(name);
  return (kind === 2 || kind === 3) && (languageForPath(name) !== null || CONTEXT_NAMES.has(name));
}

function kindOf(e: Dirent): number {
  return e.isDirectory() ? 1 : e.isFile() ? 2 : e.isSymbolicLink() ? 3 : 0;
}

function kindsOf(listing: DirListing): Kinds {
  const kinds: Kinds = new Map();
  listing.names.forEach((name, i) => kinds.set(name, listing.kinds[i]!));
  return kinds;
}

function stampOf(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return undefined;
  }
}

type Entry = [rel: string, size: number, mtimeMs: number];

export class StalenessCheck {
  private readonly out: OutputFolder;
  private manifestStamp: string | undefined;
  private listingsStamp: string | undefined;
  private entries: Entry[] = [];
  private folders = new Map<string, Folder>();
  /** The folders came from the walk's listings (else from the manifest's paths). */
  private listed = false;

  constructor(
    private readonly root: string,
    outDir: string,
  ) {
    this.out = new OutputFolder(outDir);
  }

  /** The first changed path (a file, or an entry added to or removed from a folder), or null; runs to the end at once. */
  firstChange(): string | null {
    const walk = this.walk();
    for (;;) {
      const step = walk.next();
      if (step.done) return step.value;
    }
  }

  /** {@link firstChange} in steps: yields every STAT_CHUNK stats (a main-thread caller yields to the event loop there). */
  *walk(): Generator<void, string | null> {
    this.refresh();
    let done = 0;
    for (const [rel, size, mtime] of this.entries) {
      if (++done % STAT_CHUNK === 0) yield;
      let st;
      try {
        st = statSync(join(this.root, rel));
      } catch {
        return rel; // deleted
      }
      if (st.size !== size || Math.abs(st.mtimeMs - mtime) > 1) return rel;
    }
    for (const folder of this.folders.values()) {
      if (++done % STAT_CHUNK === 0) yield;
      let mtimeMs;
      try {
        mtimeMs = statSync(join(this.root, folder.rel)).mtimeMs;
      } catch {
        continue; // removed: its parent's entries changed, and its files are gone from the manifest's view
      }
      if (mtimeMs === folder.mtimeMs) continue;
      folder.mtimeMs = mtimeMs;
      const changed = this.reread(folder);
      if (changed) return changed;
    }
    return null;
  }

  /** Read a folder whose mtime moved: the first entry that matters and was added or removed, if any. */
  private reread(folder: Folder): string | null {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(this.root, folder.rel), { withFileTypes: true });
    } catch {
      return null; // unreadable now: the walk would read nothing there either
    }
    const before = folder.names ?? (folder.listing ? kindsOf(folder.listing) : null);
    const now: Kinds = new Map(entries.map((e) => [e.name, kindOf(e)]));
    folder.names = now;
    folder.listing = undefined;
    if (!before) return null; // the first reading is the baseline
    const path = (name: string) => (folder.rel === '' ? name : `${folder.rel}/${name}`);
    for (const [name, kind] of now) if (before.get(name) !== kind && matters(name, kind)) return path(name);
    for (const [name, kind] of before) if (!now.has(name) && matters(name, kind)) return path(name);
    return null;
  }

  /** Re-read the manifest and the listings when their files changed (after an update). */
  private refresh(): void {
    const listingsStamp = stampOf(this.out.listingsFile);
    const listingsChanged = listingsStamp !== this.listingsStamp;
    if (listingsChanged) {
      this.listingsStamp = listingsStamp;
      const saved = listingsStamp ? this.out.listings() : null;
      this.listed = saved !== null;
      if (saved) {
        this.folders = new Map();
        const racyFrom = saved.scannedAtMs - RACY_MS;
        for (const [rel, listing] of saved.listings) {
          // Another output folder is listed but never entered: its writes are not source changes.
          if (marksOutput((name) => listing.names.includes(name))) continue;
          this.folders.set(rel, { rel, mtimeMs: listing.mtimeMs >= racyFrom ? NaN : listing.mtimeMs, names: null, listing });
        }
      }
    }
    const manifestStamp = stampOf(this.out.manifestFile);
    const manifestChanged = manifestStamp !== this.manifestStamp;
    if (manifestChanged) {
      this.manifestStamp = manifestStamp;
      this.entries = [];
      try {
        const manifest = manifestStamp ? parseManifest(readFileSync(this.out.manifestFile, 'utf8')) : null;
        if (manifest) this.entries = Object.entries(manifest.files).map(([rel, e]) => [rel, e.size, e.mtime_ms]);
      } catch {
        // unreadable: nothing to compare
      }
    }
    if (!this.listed && (listingsChanged || manifestChanged)) this.foldersOfEntries();
  }

  /** Without listings: the folders that hold extracted files, keeping what was seen of the known ones. */
  private foldersOfEntries(): void {
    const folders = new Map<string, Folder>();
    const add = (rel: string) => {
      if (!folders.has(rel)) folders.set(rel, this.folders.get(rel) ?? { rel, mtimeMs: NaN, names: null });
    };
    add('');
    for (const [rel] of this.entries) {
      for (let slash = rel.indexOf('/'); slash > 0; slash = rel.indexOf('/', slash + 1)) add(rel.slice(0, slash));
    }
    this.folders = folders;
  }
}
