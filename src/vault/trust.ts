import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VaultError } from './errors.ts';
import { withFileLock, writeFileAtomic } from './files.ts';
import { dataDir, ensureDataDir, type Env } from './paths.ts';

/** The owner's decision about one scope file, bound to the content it was made on. */
export interface TrustRecord {
  /** sha256 of the file's bytes when the decision was made. */
  hash: string;
  trusted: boolean;
  /** The whole file was denied. */
  denyAll: boolean;
  /** Variables denied one by one (kept across re-trusts). */
  denied: string[];
  at: number;
}

interface TrustFile {
  format: 'synaptic-scopes';
  version: 1;
  files: Record<string, TrustRecord>;
}

/** sha256 hex of a scope file's content. */
export function contentHash(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Trust decisions per scope file path (`scopes.json` under the data directory; names, no values). */
export class TrustStore {
  readonly file: string;
  private readonly lockFile: string;

  constructor(private readonly env: Env = process.env) {
    this.file = join(dataDir(env), 'scopes.json');
    this.lockFile = join(dataDir(env), 'scopes.lock');
  }

  get(path: string): TrustRecord | undefined {
    return this.read().files[path];
  }

  /** Applies `change` to the record of `path` under the lock and saves it. */
  update(path: string, change: (old: TrustRecord | undefined) => TrustRecord): TrustRecord {
    ensureDataDir(this.env);
    return withFileLock(this.lockFile, () => {
      const doc = this.read();
      const next = change(doc.files[path]);
      doc.files[path] = next;
      writeFileAtomic(this.file, JSON.stringify(doc, null, 1) + '\n');
      return next;
    });
  }

  private read(): TrustFile {
    if (!existsSync(this.file)) return { format: 'synaptic-scopes', version: 1, files: {} };
    let doc: TrustFile;
    try {
      doc = JSON.parse(readFileSync(this.file, 'utf8')) as TrustFile;
    } catch {
      throw new VaultError(`Cannot read ${this.file}: it is not valid JSON (delete it to forget every scope decision)`);
    }
    if (doc?.format !== 'synaptic-scopes' || typeof doc.files !== 'object' || doc.files === null) {
      throw new VaultError(`Cannot read ${this.file}: it is not a synaptic scope trust file`);
    }
    if (doc.version !== 1) throw new VaultError(`Cannot read ${this.file}: format version ${String(doc.version)} is newer than this synaptic (1)`);
    return doc;
  }
}
