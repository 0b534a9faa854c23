import { ScopeFileError } from './errors.ts';
import { parseRef, type SecretRef } from './store.ts';

/** The file names a folder's scope is read from, in order; `.synapse.yaml` for compatibility. */
export const SCOPE_FILE_NAMES = ['.synaptic.yaml', '.synapse.yaml'] as const;

/** One `env:` entry: the variable a command sees and the vault secret it comes from. */
export interface EnvEntry {
  /** Environment variable name. */
  variable: string;
  ref: SecretRef;
  line: number;
}

/** A parsed scope file. */
export interface ScopeFile {
  /** Optional `scope:` label (shown by vaultstatus). */
  scope: string | null;
  env: EnvEntry[];
}

const ENV_VAR_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEYS = ['env', 'scope'];

/**
 * Error messages quote names (already validated) but never other text of the file: a value pasted
 * into a scope file by mistake must not travel on into vaultstatus or logs.
 *
 * Parses the YAML subset a scope file may use, strictly, naming the line of any error:
 *
 * ```yaml
 * scope: project            # optional label
 * env:                      # a list: NAME (from the default vault) or vault.NAME, exported as NAME
 *   - DATABASE_URL
 *   - deploy.RegistryToken
 * ```
 * `env:` may instead be a mapping `VARIABLE: vault.NAME`, or a flow list `env: [A, b.C]`.
 * Comments, blank lines and single- or double-quoted scalars are accepted; tabs, anchors, multi-line
 * scalars and unknown keys are errors.
 */
export function parseScopeFile(text: string, file: string): ScopeFile {
  const fail = (line: number, reason: string): never => {
    throw new ScopeFileError(file, line, reason);
  };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const result: ScopeFile = { scope: null, env: [] };
  const seenKeys = new Set<string>();
  let inEnv: 'none' | 'list' | 'map' | 'open' = 'none';
  let envIndent = -1;
  const seenVars = new Map<string, number>();

  const addEntry = (variable: string | null, refText: string, line: number): void => {
    let ref: SecretRef;
    try {
      ref = parseRef(refText);
    } catch {
      return fail(line, 'not a secret name (write NAME or vault.NAME; values belong in the vault, never in this file)');
    }
    const v = variable ?? ref.name;
    if (!ENV_VAR_RE.test(v)) fail(line, 'not an environment variable name (letters, digits and _, not starting with a digit)');
    const first = seenVars.get(v);
    if (first !== undefined) fail(line, `"${v}" is already named on line ${first}`);
    seenVars.set(v, line);
    result.env.push({ variable: v, ref, line });
  };

  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const raw = lines[i]!;
    if (/^ *\t/.test(raw)) fail(n, 'tabs are not allowed for indentation');
    const body = stripComment(raw, n, fail).trimEnd();
    if (body.trim() === '') continue;
    if (n === 1 && body.trim() === '---') continue;
    const indent = body.length - body.trimStart().length;
    const content = body.trim();

    if (indent === 0) {
      inEnv = 'none';
      const m = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:(?:\s+(.*))?$/.exec(content);
      if (!m) fail(n, 'expected "key: value" at the top level');
      const key = m![1]!;
      const value = m![2] ?? '';
      if (!KEYS.includes(key)) fail(n, `unknown key "${key}" (a scope file has env and scope)`);
      if (seenKeys.has(key)) fail(n, `"${key}" appears twice`);
      seenKeys.add(key);
      if (key === 'scope') {
        const label = scalar(value, n, fail);
        if (!/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/.test(label)) fail(n, 'the scope label must be 1-64 letters, digits, spaces, ".", "_" or "-"');
        result.scope = label;
      } else if (value === '') {
        inEnv = 'open';
        envIndent = -1;
      } else if (value.startsWith('[')) {
        if (!value.endsWith(']')) fail(n, 'a flow list must end with "]" on the same line');
        const inner = value.slice(1, -1).trim();
        if (inner !== '') for (const item of inner.split(',')) addEntry(null, scalar(item.trim(), n, fail), n);
      } else if (value === '{}') {
        // An empty mapping: no entries.
      } else {
        fail(n, 'env must be a list ("- NAME" lines), a mapping ("VARIABLE: vault.NAME" lines) or [A, B]');
      }
      continue;
    }

    if (inEnv === 'none') fail(n, 'unexpected indentation (only env: has nested entries)');
    if (envIndent === -1) envIndent = indent;
    else if (indent !== envIndent) fail(n, `inconsistent indentation (expected ${envIndent} spaces)`);
    if (content.startsWith('-')) {
      if (inEnv === 'map') fail(n, 'cannot mix "- NAME" items with "VARIABLE: vault.NAME" entries');
      inEnv = 'list';
      const item = content.slice(1).trim();
      if (item === '') fail(n, 'empty list item');
      if (/^[A-Za-z_][A-Za-z0-9_]*\s*:/.test(item)) fail(n, 'write "VARIABLE: vault.NAME" entries without the leading "-"');
      addEntry(null, scalar(item, n, fail), n);
    } else {
      if (inEnv === 'list') fail(n, 'cannot mix "VARIABLE: vault.NAME" entries with "- NAME" items');
      inEnv = 'map';
      const m = /^([^:\s]+)\s*:\s*(.*)$/.exec(content);
      if (!m) fail(n, 'expected "VARIABLE: vault.NAME"');
      const variable = unquote(m![1]!, n, fail);
      if (!ENV_VAR_RE.test(variable)) fail(n, 'not an environment variable name (letters, digits and _, not starting with a digit)');
      if (m![2] === '') fail(n, `"${variable}" names no secret (write "${variable}: vault.NAME")`);
      addEntry(variable, scalar(m![2]!, n, fail), n);
    }
  }
  return result;
}

type Fail = (line: number, reason: string) => never;

/** Removes a trailing `# comment` that is outside quotes. */
function stripComment(line: string, n: number, fail: Fail): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      return line.slice(0, i);
    }
  }
  if (quote) fail(n, 'unterminated quoted string');
  return line;
}

function unquote(text: string, n: number, fail: Fail): string {
  const t = text.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) {
    const inner = t.slice(1, -1);
    if (inner.includes('\\') && t.startsWith('"')) fail(n, 'escapes are not supported in a scope file');
    return inner;
  }
  return t;
}

/** A plain or quoted scalar; YAML features beyond that are refused. */
function scalar(text: string, n: number, fail: Fail): string {
  const t = unquote(text, n, fail);
  if (t === '') fail(n, 'empty value');
  if (t === text.trim() && /^[&*!|>%@`{[]/.test(t)) fail(n, 'uses YAML syntax a scope file does not accept (anchors, tags, block scalars, flow mappings)');
  return t;
}

/** The text `synaptic scope init` writes. */
export function scopeFileTemplate(refs: readonly string[]): string {
  const lines = [
    '# Synaptic scope file: the vault secrets commands in this folder may receive.',
    '# Values never live here: store one with `synaptic vault set NAME`.',
    '# After any edit, review and run `synaptic scope trust`: an edited file is untrusted until then.',
    'env:',
  ];
  if (refs.length === 0) lines.push('  # - DATABASE_URL          (default vault)', '  # - deploy.RegistryToken   (vault "deploy", exported as RegistryToken)');
  for (const r of refs) lines.push(`  - ${r}`);
  return lines.join('\n') + '\n';
}
