import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { open, seal, type Sealed } from './cipher.ts';
import { VaultError } from './errors.ts';
import { withFileLock, writeFileAtomic } from './files.ts';
import { keyCheck, keyFilePath, loadKey, type VaultKey } from './key.ts';
import { dataDir, ensureDataDir, isWithin, type Env } from './paths.ts';

/** The vault a name belongs to when none is given (`DATABASE_URL` is `default.DATABASE_URL`). */
export const DEFAULT_VAULT = 'default';
/** Held for every folder. */
export const ANY_FOLDER = '*';
const MAX_VALUE_BYTES = 1 << 20;
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const VAULT_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** A secret's identity: `vault.name`. */
export interface SecretRef {
  vault: string;
  name: string;
}

/** What the vault tells about a secret without decrypting it. */
export interface SecretInfo extends SecretRef {
  ref: string;
  /** Canonical folders the secret is held for (`*` for every folder), sorted. */
  folders: string[];
  created: number;
  updated: number;
}

interface SecretRecord extends SecretInfo, Sealed {}

interface VaultFile {
  format: 'synaptic-vault';
  version: 1;
  /** Salt for a passphrase in SYNAPTIC_VAULT_KEY. */
  salt: string;
  /** keyCheck() of the key the values are sealed with; null while empty. */
  check: string | null;
  secrets: SecretRecord[];
}

/** Parses `NAME` or `vault.NAME`; TypeError on anything else. */
export function parseRef(text: string): SecretRef {
  const dot = text.indexOf('.');
  const vault = dot < 0 ? DEFAULT_VAULT : text.slice(0, dot);
  const name = dot < 0 ? text : text.slice(dot + 1);
  if (!VAULT_RE.test(vault) || !NAME_RE.test(name)) {
    throw new TypeError(
      `Cannot use secret name "${text}": use NAME or vault.NAME (NAME: letters, digits, _; not starting with a digit)`,
    );
  }
  return { vault, name };
}

/** `vault.name`. */
export function formatRef(ref: SecretRef): string {
  return `${ref.vault}.${ref.name}`;
}

function aadFor(r: SecretRef, folders: string[]): string {
  return JSON.stringify(['synaptic-vault-v1', r.vault, r.name, folders]);
}

/** True when a secret held for `folders` may be used in canonical folder `folder`. */
export function heldFor(folders: readonly string[], folder: string): boolean {
  return folders.some((f) => f === ANY_FOLDER || isWithin(folder, f));
}

/**
 * The encrypted secret store: one JSON file (`vault.json`, mode 0600) under the data directory whose
 * values are AES-256-GCM sealed. Names and folders are readable without the key; values are not.
 * Every change re-reads the file under a lock, so concurrent CLI calls do not lose updates.
 */
export class VaultStore {
  readonly file: string;
  private readonly lockFile: string;

  constructor(private readonly env: Env = process.env) {
    this.file = join(dataDir(env), 'vault.json');
    this.lockFile = join(dataDir(env), 'vault.lock');
  }

  /** Every secret's name and folders, sorted by ref; never values. */
  list(): SecretInfo[] {
    return this.read()
      .secrets.map(({ vault, name, ref, folders, created, updated }) => ({ vault, name, ref, folders, created, updated }))
      .sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  }

  /**
   * Stores (or replaces) the value of `ref` and adds `folders` to the folders it is held for.
   * The value is sealed before anything is written; the key file is created on first use.
   */
  set(ref: SecretRef, value: Buffer, folders: readonly string[]): SecretInfo {
    if (value.length === 0) throw new VaultError(`Cannot store ${formatRef(ref)}: the value is empty`);
    if (value.length > MAX_VALUE_BYTES) throw new VaultError(`Cannot store ${formatRef(ref)}: the value exceeds 1 MiB`);
    if (folders.length === 0) throw new VaultError(`Cannot store ${formatRef(ref)}: name at least one folder it is held for`);
    ensureDataDir(this.env);
    return withFileLock(this.lockFile, () => {
      const doc = this.read();
      const key = this.key(doc, true);
      const now = Math.floor(Date.now() / 1000);
      const old = doc.secrets.find((s) => s.vault === ref.vault && s.name === ref.name);
      const all = [...new Set([...(old?.folders ?? []), ...folders])].sort();
      const info: SecretInfo = { ...ref, ref: formatRef(ref), folders: all, created: old?.created ?? now, updated: now };
      const record: SecretRecord = { ...info, ...seal(key.key, value, aadFor(ref, all)) };
      doc.secrets = doc.secrets.filter((s) => s !== old).concat(record);
      doc.check = keyCheck(key.key);
      this.write(doc);
      return info;
    });
  }

  /**
   * Removes `ref`, or only the given folders from it (re-sealing the value for the folders left).
   * Returns false when the vault has no such secret.
   */
  remove(ref: SecretRef, folders?: readonly string[]): boolean {
    if (!existsSync(this.file)) return false;
    return withFileLock(this.lockFile, () => {
      const doc = this.read();
      const old = doc.secrets.find((s) => s.vault === ref.vault && s.name === ref.name);
      if (!old) return false;
      if (folders && !folders.some((f) => old.folders.includes(f))) {
        throw new VaultError(`Cannot remove ${old.ref} from ${folders.join(', ')}: it is held only for ${old.folders.join(', ')}`);
      }
      const left = folders ? old.folders.filter((f) => !folders.includes(f)) : [];
      if (left.length === 0) {
        doc.secrets = doc.secrets.filter((s) => s !== old);
      } else {
        const key = this.key(doc, false);
        const value = open(key.key, old, aadFor(old, old.folders), `secret ${old.ref}`);
        const record: SecretRecord = { ...old, folders: left, updated: Math.floor(Date.now() / 1000), ...seal(key.key, value, aadFor(old, left)) };
        value.fill(0);
        doc.secrets = doc.secrets.map((s) => (s === old ? record : s));
      }
      if (doc.secrets.length === 0) doc.check = null;
      this.write(doc);
      return true;
    });
  }

  /** Adds folders a stored secret is held for, re-sealing its value; false when there is no such secret. */
  hold(ref: SecretRef, folders: readonly string[]): SecretInfo | null {
    if (!existsSync(this.file)) return null;
    return withFileLock(this.lockFile, () => {
      const doc = this.read();
      const old = doc.secrets.find((s) => s.vault === ref.vault && s.name === ref.name);
      if (!old) return null;
      const key = this.key(doc, false);
      const value = open(key.key, old, aadFor(old, old.folders), `secret ${old.ref}`);
      const all = [...new Set([...old.folders, ...folders])].sort();
      const record: SecretRecord = { ...old, folders: all, updated: Math.floor(Date.now() / 1000), ...seal(key.key, value, aadFor(old, all)) };
      value.fill(0);
      doc.secrets = doc.secrets.map((s) => (s === old ? record : s));
      this.write(doc);
      const { vault, name, ref: r, created, updated } = record;
      return { vault, name, ref: r, folders: all, created, updated };
    });
  }

  /** Decrypts the given refs (all must exist). The caller must keep the values out of output. */
  reveal(refs: readonly SecretRef[]): Map<string, string> {
    const out = new Map<string, string>();
    if (refs.length === 0) return out;
    const doc = this.read();
    const key = this.key(doc, false);
    for (const ref of refs) {
      const r = doc.secrets.find((s) => s.vault === ref.vault && s.name === ref.name);
      if (!r) throw new VaultError(`Cannot read ${formatRef(ref)}: the vault holds no such secret`);
      out.set(r.ref, open(key.key, r, aadFor(r, r.folders), `secret ${r.ref}`).toString('utf8'));
    }
    return out;
  }

  /** Decrypts every value to prove the key and the file (for `synaptic vault check`); returns the count. */
  verify(): number {
    const doc = this.read();
    if (doc.secrets.length === 0) return 0;
    const key = this.key(doc, false);
    for (const r of doc.secrets) open(key.key, r, aadFor(r, r.folders), `secret ${r.ref}`).fill(0);
    return doc.secrets.length;
  }

  private key(doc: VaultFile, create: boolean): VaultKey {
    // A new key file only for a vault with nothing sealed yet: a lost key must not be silently replaced.
    const key = loadKey(this.env, Buffer.from(doc.salt, 'base64'), create && doc.check === null);
    if (!key) {
      throw new VaultError(
        `Cannot open the vault: SYNAPTIC_VAULT_KEY is not set and the key file ${keyFilePath(this.env)} is missing` +
          (doc.check === null ? '' : ' (the stored values cannot be recovered without the key they were written with)'),
      );
    }
    if (doc.check !== null && doc.check !== keyCheck(key.key)) {
      throw new VaultError(
        `Cannot open the vault: the key from ${key.source} is not the key ${this.file} was written with`,
      );
    }
    return key;
  }

  private read(): VaultFile {
    if (!existsSync(this.file)) {
      return { format: 'synaptic-vault', version: 1, salt: randomBytes(16).toString('base64'), check: null, secrets: [] };
    }
    let doc: VaultFile;
    try {
      doc = JSON.parse(readFileSync(this.file, 'utf8')) as VaultFile;
    } catch (err) {
      throw new VaultError(`Cannot read the vault file ${this.file}: ${(err as Error).name === 'SyntaxError' ? 'it is not valid JSON' : (err as Error).message}`);
    }
    if (doc?.format !== 'synaptic-vault' || !Array.isArray(doc.secrets) || typeof doc.salt !== 'string') {
      throw new VaultError(`Cannot read the vault file ${this.file}: it is not a synaptic vault`);
    }
    if (doc.version !== 1) {
      throw new VaultError(`Cannot read the vault file ${this.file}: format version ${String(doc.version)} is newer than this synaptic (1)`);
    }
    return doc;
  }

  private write(doc: VaultFile): void {
    writeFileAtomic(this.file, JSON.stringify(doc, null, 1) + '\n');
  }
}
