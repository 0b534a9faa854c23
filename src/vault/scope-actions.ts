import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from './paths.ts';
import { parseScopeFile, SCOPE_FILE_NAMES, scopeFileTemplate } from './scope-file.ts';
import { formatRef, parseRef } from './store.ts';
import { contentHash, TrustStore, type TrustRecord } from './trust.ts';

/** Writes `<dir>/.synaptic.yaml` naming `names` (NAME or vault.NAME); refuses when a scope file exists. */
export function initScope(dir: string, names: readonly string[]): string {
  const existing = SCOPE_FILE_NAMES.map((n) => join(dir, n)).find((p) => existsSync(p));
  if (existing) throw new Error(`Cannot create a scope file in ${dir}: ${existing} already exists`);
  const refs = names.map((n) => {
    const r = parseRef(n);
    return n.includes('.') ? formatRef(r) : r.name;
  });
  const file = join(dir, SCOPE_FILE_NAMES[0]);
  writeFileSync(file, scopeFileTemplate(refs), { flag: 'wx', mode: 0o644 });
  return file;
}

/** Maps names (variable or vault.NAME) to the variables a scope file declares; Error for unknown ones. */
export function variablesIn(file: string, text: string, names: readonly string[]): string[] {
  const parsed = parseScopeFile(text, file);
  return names.map((n) => {
    const byVar = parsed.env.find((e) => e.variable === n);
    if (byVar) return byVar.variable;
    let ref: string | null = null;
    try {
      ref = formatRef(parseRef(n));
    } catch {
      // Not a ref either: reported below.
    }
    const byRef = parsed.env.find((e) => formatRef(e.ref) === ref);
    if (byRef) return byRef.variable;
    throw new Error(`Cannot find "${n}" in ${file}: it names ${parsed.env.map((e) => e.variable).join(', ') || 'nothing'}`);
  });
}

/**
 * Trusts a scope file as it is now (its content hash); `allow` lifts earlier denials of those names.
 * A file that does not parse cannot be trusted. With `reviewed` (the bytes a person approved), a file
 * changed since is refused, so an edit between the prompt and the answer is never trusted. Returns
 * the record and the variables it grants.
 */
export function trustScope(
  file: string,
  allow: readonly string[] = [],
  env: Env = process.env,
  reviewed?: Buffer,
): { record: TrustRecord; granted: string[] } {
  const bytes = readFileSync(file);
  if (reviewed && contentHash(reviewed) !== contentHash(bytes)) {
    throw new Error(`Cannot trust ${file}: it changed after it was shown for approval; nothing was trusted. Review it and run \`synaptic scope trust\` again`);
  }
  const parsed = parseScopeFile(bytes.toString('utf8'), file);
  const lifted = variablesIn(file, bytes.toString('utf8'), allow);
  const hash = contentHash(bytes);
  const record = new TrustStore(env).update(file, (old) => ({
    hash,
    trusted: true,
    denyAll: false,
    denied: (old?.denied ?? []).filter((v) => !lifted.includes(v)),
    at: Math.floor(Date.now() / 1000),
  }));
  return { record, granted: parsed.env.map((e) => e.variable).filter((v) => !record.denied.includes(v)) };
}

/**
 * Denies a whole scope file (nothing it names resolves until trusted again), or with `names` only those
 * variables (kept across later trusts, until lifted with `allow`). Returns the denied variables.
 */
export function denyScope(file: string, names: readonly string[] = [], env: Env = process.env): string[] {
  const bytes = readFileSync(file);
  const text = bytes.toString('utf8');
  const at = Math.floor(Date.now() / 1000);
  const trust = new TrustStore(env);
  if (names.length > 0) {
    const vars = variablesIn(file, text, names);
    trust.update(file, (old) => ({
      hash: old?.hash ?? contentHash(bytes),
      trusted: old?.trusted ?? false,
      denyAll: old?.denyAll ?? false,
      denied: [...new Set([...(old?.denied ?? []), ...vars])].sort(),
      at,
    }));
    return vars;
  }
  let vars: string[] = [];
  try {
    vars = parseScopeFile(text, file).env.map((e) => e.variable);
  } catch {
    // A broken file can still be denied as a whole.
  }
  trust.update(file, (old) => ({ hash: contentHash(bytes), trusted: false, denyAll: true, denied: old?.denied ?? [], at }));
  return vars;
}
