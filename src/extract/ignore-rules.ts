/**
 * `.gitignore`-syntax rules (also used for `.synapticignore`): compile the lines of one ignore file
 * into matchers relative to the folder that holds it. Browser-safe (pure string work).
 *
 * Supported, following gitignore(5): comments, `\#`/`\!` escapes, trailing-space trimming, `!`
 * negation, a trailing `/` for folders only, a `/` elsewhere anchoring the pattern to the ignore
 * file's folder, `*`, `?`, `[...]` classes, and `**` as a leading, trailing or middle path part.
 */

export interface IgnoreRule {
  /** Tested against the path relative to the rule's folder (no leading `/`). */
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /**
   * What the path's last segment must be (`name`), or start and end with (`prefix`, `suffix`), for
   * the regex to have a chance: most rules name a file or an extension, and a string test rules them
   * out far faster than the regex (a repository walk tests every path against every rule in scope).
   */
  name?: string;
  prefix?: string;
  suffix?: string;
}

/** Compile the text of one ignore file. Invalid lines are skipped (as git does). */
export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    const rule = compileLine(rawLine);
    if (rule) rules.push(rule);
  }
  return rules;
}

function compileLine(rawLine: string): IgnoreRule | null {
  let line = rawLine.replace(/(?<!\\)\s+$/, '');
  if (line === '' || line.startsWith('#')) return null;
  let negate = false;
  if (line.startsWith('!')) {
    negate = true;
    line = line.slice(1);
  } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.endsWith('/')) {
    dirOnly = true;
    line = line.replace(/\/+$/, '');
  }
  if (line === '') return null;
  // A slash at the start or in the middle anchors the pattern; otherwise it matches at any depth.
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  let body: string;
  try {
    body = globToRegexSource(line);
  } catch {
    return null;
  }
  const source = anchored ? `^${body}$` : `^(?:.*/)?${body}$`;
  return { regex: new RegExp(source), negate, dirOnly, ...lastSegmentFilter(line) };
}

/**
 * The {@link IgnoreRule.name} / prefix / suffix filter of a pattern: its last part without glob
 * characters is the name itself; with `*` only, the literal text before the first and after the
 * last `*`. None for `**` or a part with `?`, `[...]` or an escape.
 */
function lastSegmentFilter(pattern: string): { name?: string; prefix?: string; suffix?: string } {
  const last = pattern.slice(pattern.lastIndexOf('/') + 1);
  if (/[?[\\]/.test(last)) return {};
  const pieces = last.split('*');
  if (pieces.length === 1) return { name: last };
  const prefix = pieces[0]!;
  const suffix = pieces[pieces.length - 1]!;
  return { ...(prefix ? { prefix } : {}), ...(suffix ? { suffix } : {}) };
}

function globToRegexSource(glob: string): string {
  const parts = glob.split('/');
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    if (part === '**') {
      if (last) out += i === 0 ? '.*' : '.*'; // `a/**`: everything inside a
      else out += '(?:[^/]*/)*'; // `**/` or `/**/`: zero or more folders
      continue;
    }
    out += segmentToRegex(part);
    if (!last) out += '/';
  }
  // `a/**` must not match `a` itself, but must match anything under it.
  return out.replace(/\/\.\*$/, '/.+');
}

function segmentToRegex(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') {
      out += '[^/]*';
      while (segment[i + 1] === '*') i++;
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close < 0) {
        out += '\\[';
        continue;
      }
      let cls = segment.slice(i + 1, close);
      if (cls.startsWith('!')) cls = '^' + cls.slice(1);
      out += `[${cls.replace(/\\/g, '\\\\')}]`;
      i = close;
    } else if (c === '\\' && i + 1 < segment.length) {
      out += escapeRegex(segment[++i]!);
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? '\\' + c : c;
}

/** Ignore rules of one folder (the rules of one or more ignore files found there). */
export interface IgnoreScope {
  /** Folder of the rules, repo-relative, '' for the root. */
  base: string;
  rules: IgnoreRule[];
}

/** `name` starts with `prefix` and ends with `suffix`, the two not overlapping (as `*` between them requires). */
function fits(name: string, prefix: string | undefined, suffix: string | undefined): boolean {
  if (prefix === undefined && suffix === undefined) return true;
  const p = prefix ?? '';
  const q = suffix ?? '';
  return name.length >= p.length + q.length && name.startsWith(p) && name.endsWith(q);
}

/**
 * Whether a path is ignored by a stack of scopes (outermost first): the last matching rule wins and
 * deeper scopes come later, as in git.
 */
export function isIgnored(scopes: readonly IgnoreScope[], path: string, isDir: boolean): boolean {
  let ignored = false;
  const name = path.slice(path.lastIndexOf('/') + 1);
  for (const scope of scopes) {
    const rel = scope.base === '' ? path : path.startsWith(scope.base + '/') ? path.slice(scope.base.length + 1) : null;
    if (rel === null) continue;
    for (const rule of scope.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.name !== undefined ? name !== rule.name : !fits(name, rule.prefix, rule.suffix)) continue;
      if (rule.regex.test(rel)) ignored = !rule.negate;
    }
  }
  return ignored;
}
