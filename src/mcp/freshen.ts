import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseManifest, type Manifest } from '../graph/manifest.ts';

export interface FreshenOptions {
  /** Repository root the graph was extracted from. */
  root: string;
  /** Path of the served graph.json (its folder holds .manifest.json). */
  graphPath: string;
  /** Minimum ms between two staleness checks. */
  debounceMs?: number;
  log?: (line: string) => void;
  /** Called after an incremental update rewrote the graph (to reload it now). */
  onUpdated?: () => Promise<void>;
}

/**
 * The per-query staleness gate: at most once per debounce window, compare the manifest's size and
 * mtime of every extracted file with the file system; when one changed or vanished, run the
 * incremental update (`synaptic update`) so the next answer follows the user's edits. Checks never
 * throw; an update failure is logged and the current graph keeps serving.
 */
export class Freshener {
  private last = 0;
  private running: Promise<void> | undefined;
  private manifest: { stamp: string; value: Manifest | null } | undefined;

  constructor(private readonly options: FreshenOptions) {}

  /** Check (debounced) and update if stale; resolves when the graph is current. */
  async check(): Promise<void> {
    if (this.running) return this.running;
    const now = Date.now();
    if (now - this.last < (this.options.debounceMs ?? 2000)) return;
    this.last = now;
    const changed = this.firstChange();
    if (!changed) return;
    this.running = (async () => {
      const started = Date.now();
      try {
        // Loaded on first use: the extraction pipeline (tree-sitter, workers) is not on the startup path.
        const { runExtract } = await import('../extract/pipeline.node.ts');
        await runExtract({ root: this.options.root, outDir: dirname(this.options.graphPath), incremental: true, workers: 0 });
        this.options.log?.(`[synaptic] source changed (${changed}); graph updated in ${Date.now() - started} ms`);
        await this.options.onUpdated?.();
      } catch (err) {
        this.options.log?.(`[synaptic] warning: cannot update the graph after source changes: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        this.last = Date.now();
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** The first file whose size or mtime differs from the manifest, or undefined when all match. */
  private firstChange(): string | undefined {
    const manifest = this.readManifest();
    if (!manifest) return undefined;
    for (const [rel, entry] of Object.entries(manifest.files)) {
      let st;
      try {
        st = statSync(join(this.options.root, rel));
      } catch {
        return rel; // deleted
      }
      if (st.size !== entry.size || Math.abs(st.mtimeMs - entry.mtime_ms) > 1) return rel;
    }
    return undefined;
  }

  private readManifest(): Manifest | null {
    const path = join(dirname(this.options.graphPath), '.manifest.json');
    let stamp: string;
    try {
      const st = statSync(path);
      stamp = `${st.mtimeMs}:${st.size}`;
    } catch {
      return null;
    }
    if (this.manifest?.stamp !== stamp) {
      let value: Manifest | null = null;
      try {
        value = parseManifest(readFileSync(path, 'utf8'));
      } catch {
        value = null;
      }
      this.manifest = { stamp, value };
    }
    return this.manifest.value;
  }
}

/** Whether a graph path sits in a standard `synaptic-out/` folder (so its repo root is known). */
export function isStandardOutput(graphPath: string): boolean {
  return basename(dirname(graphPath)) === 'synaptic-out';
}
