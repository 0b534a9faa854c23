/**
 * Is a value a generated secret, or a word, placeholder, reference or piece of code? Shared by the
 * contextual credential rules (the value after `password=`, `-p`, `Bearer`) and the key-material checks.
 */

/** Values that stand for a secret without being one: variables, templates, masks, stock words. */
export const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\(.*\)|%[A-Za-z_][A-Za-z0-9_]*%|<[^>]*>?|\{\{.*\}\}|%[sd]|\*+|x+|\.+|-+|null|none|nil|undefined|true|false|changeme|example|placeholder|redacted|secret|password|passwd|pass|pw|pwd|token|your[-_a-z]*|my[-_a-z]*|process\.env\..*|os\.environ.*|env\..*|getenv.*)$/i;

/** Shannon entropy in bits per character. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

/** How many of lower case, upper case, digits and other characters `s` uses. */
export function characterClasses(s: string): number {
  return (/[a-z]/.test(s) ? 1 : 0) + (/[A-Z]/.test(s) ? 1 : 0) + (/[0-9]/.test(s) ? 1 : 0) + (/[^A-Za-z0-9]/.test(s) ? 1 : 0);
}

/**
 * True for a value that reads like a generated secret rather than a word, path, reference or code.
 * `passwordLike` (the name says password) accepts shorter, human-made values.
 */
export function looksRandom(value: string, passwordLike: boolean): boolean {
  if (PLACEHOLDER.test(value)) return false;
  if (/^[a-z]+(?:[._-][a-z]+)*$/.test(value) && !passwordLike) return false; // identifiers, words
  if (/^\d+(?:\.\d+)*$/.test(value)) return false; // numbers, versions
  if (/^(?:https?:\/\/|\.{0,2}\/|~\/)/.test(value)) return false; // URLs and paths
  if (/^(?:[A-Za-z_$#][\w$#]*(?:\??\.[A-Za-z_$#][\w$#]*)*(?:[([]|$)|[([]|this\.)/.test(value) && /[.([]/.test(value)) return false; // code: member access, calls, indexing
  if (passwordLike) return value.length >= 8 && characterClasses(value) >= 2 && shannonEntropy(value) >= 2.5;
  if (value.length < 16) return false;
  return shannonEntropy(value) >= 3.3 && characterClasses(value) >= 2;
}
