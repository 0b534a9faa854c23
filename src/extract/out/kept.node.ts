import { statSync } from 'node:fs';
import { EncodeMemo } from '../../graph/snapshot-encode.ts';
import type { RankMemo } from '../phases/rank.node.ts';

/**
 * What a keeper (`synaptic update --watch`, `synaptic serve --watch`: long-lived processes the user
 * started) holds between extraction runs: the decoded form of each output file it read or wrote,
 * under the file's identity (mtime, size, inode, ctime). A run gets the kept value only while the
 * file on disk is still the one it came from; any other writer (another process, a user deleting
 * the folder) changes the identity, and the file is read again. So a keeper's update skips decoding
 * its own previous outputs and produces exactly what a fresh process would. Only OutputFolder uses it.
 */
export class KeptOutputs {
  readonly #kept = new Map<string, { stamp: string; value: unknown }>();
  /** Reads answered from memory / from disk (for tests). */
  readonly counts = { kept: 0, loaded: 0 };
  #encodeMemo!: EncodeMemo;
  /** The last run's ranking (see RankMemo): a positions-only update of its graph reuses it. */
  rank: RankMemo | undefined;

  constructor() {
    this.encodeMemo = new EncodeMemo();
  }

  /** graph.cbor's encoder memo across updates (a fresh one once it holds too many strings no longer used). */
  get encodeMemo(): EncodeMemo {
    if (this.#encodeMemo.worn) this.encodeMemo = new EncodeMemo();
    return this.#encodeMemo;
  }

  set encodeMemo(memo: EncodeMemo) {
    // Updates write graph.cbor from the encoded bytes before the next encode: one output buffer serves them all.
    memo.output ??= this.#encodeMemo?.output ?? null;
    memo.allocate = (bytes) => Buffer.allocUnsafeSlow(bytes);
    this.#encodeMemo = memo;
  }

  /** The decoded value of `path`: the kept one if the file is unchanged, else `load()` (kept when not null). */
  read<T>(path: string, load: () => T): T {
    const stamp = fileStamp(path);
    const kept = this.#kept.get(path);
    if (stamp !== null && kept?.stamp === stamp) {
      this.counts.kept++;
      return kept.value as T;
    }
    this.#kept.delete(path);
    this.counts.loaded++;
    // The stamp is taken before reading: a file replaced in between is simply read again next time.
    const value = load();
    if (stamp !== null && value !== null && value !== undefined) this.#kept.set(path, { stamp, value });
    return value;
  }

  /** Like {@link read}, for a caller that changes the value: it is handed over and no longer kept. */
  take<T>(path: string, load: () => T): T {
    const value = this.read(path, load);
    this.#kept.delete(path);
    return value;
  }

  /** Record `value` as the decoded form of the file just written at `path`. */
  wrote(path: string, value: unknown): void {
    const stamp = fileStamp(path);
    if (stamp === null) this.#kept.delete(path);
    else this.#kept.set(path, { stamp, value });
  }

  /** Forget everything (e.g. after an error left the outputs in an unknown state). */
  clear(): void {
    this.#kept.clear();
    this.rank = undefined;
  }
}

/** A file's identity: mtime, size, inode and ctime (null when it is missing). */
export function fileStamp(path: string): string | null {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.mtimeNs}:${st.size}:${st.ino}:${st.ctimeNs}`;
  } catch {
    return null;
  }
}
