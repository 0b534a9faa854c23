/**
 * A strict parser for the one documented shape of synaptic-workspace.yaml (no YAML package is a
 * dependency, and this file needs only this much):
 *
 *   version: 1                # optional
 *   members:
 *     - path: services/api    # required, relative to the file's folder
 *       tag: api              # optional (default: the folder's base name)
 *     - path: web
 *
 * Values are plain scalars or single/double-quoted strings; `#` starts a comment at the start of
 * a line or after a space. Anything else (anchors, flow collections, multi-line strings, unknown
 * keys) is refused with its line number rather than guessed at.
 */

export interface WorkspaceFileMember {
  path: string;
  tag?: string;
  /** 1-based line of the member's `- path:` entry (for error messages). */
  line: number;
}

export interface WorkspaceFile {
  version?: number;
  members: WorkspaceFileMember[];
}

export class WorkspaceFileError extends Error {
  override name = 'WorkspaceFileError';
}

const MEMBER_KEYS = new Set(['path', 'tag']);

export function parseWorkspaceYaml(text: string, file = 'synaptic-workspace.yaml'): WorkspaceFile {
  const fail = (line: number, why: string): never => {
    throw new WorkspaceFileError(`${file}:${line}: ${why}`);
  };
  const result: WorkspaceFile = { members: [] };
  let inMembers = false;
  let sawMembers = false;
  let current: (WorkspaceFileMember & Record<string, unknown>) | null = null;
  let itemIndent = -1;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const raw = stripComment(lines[i]!, n, fail).replace(/\s+$/, '');
    if (raw.trim() === '' || raw.trim() === '---') continue;
    if (/\t/.test(raw.slice(0, raw.length - raw.trimStart().length))) fail(n, 'tabs are not allowed for indentation');
    const indent = raw.length - raw.trimStart().length;
    const body = raw.trimStart();
    if (indent === 0) {
      inMembers = false;
      current = null;
      const [key, value] = keyValue(body, n, fail);
      if (key === 'version') {
        if (!/^\d+$/.test(value)) fail(n, `version must be a whole number, got '${value}'`);
        result.version = Number(value);
      } else if (key === 'members') {
        if (value !== '') fail(n, "'members:' takes a list of '- path: <dir>' entries on the following lines");
        if (sawMembers) fail(n, "'members' appears twice");
        inMembers = sawMembers = true;
      } else fail(n, `unknown key '${key}' (expected version or members)`);
      continue;
    }
    if (!inMembers) fail(n, 'unexpected indentation');
    if (body.startsWith('- ') || body === '-') {
      if (itemIndent === -1) itemIndent = indent;
      else if (indent !== itemIndent) fail(n, 'list items must line up');
      current = { path: '', line: n };
      result.members.push(current);
      const rest = body.slice(1).trim();
      if (rest === '') continue;
      const [key, value] = keyValue(rest, n, fail);
      setMemberKey(current, key, value, n, fail);
      continue;
    }
    if (!current || indent <= itemIndent) fail(n, "expected a list item '- path: <dir>' under members");
    const [key, value] = keyValue(body, n, fail);
    setMemberKey(current!, key, value, n, fail);
  }
  for (const m of result.members) if (!m.path) fail(m.line, "member has no 'path'");
  if (!sawMembers) fail(lines.length, "no 'members:' list");
  return result;
}

function setMemberKey(member: WorkspaceFileMember & Record<string, unknown>, key: string, value: string, n: number, fail: (l: number, w: string) => never): void {
  if (!MEMBER_KEYS.has(key)) fail(n, `unknown member key '${key}' (expected path or tag)`);
  if (member[key] !== undefined && !(key === 'path' && member.path === '')) fail(n, `'${key}' appears twice in one member`);
  if (value === '') fail(n, `'${key}' needs a value`);
  member[key] = value;
}

function keyValue(body: string, n: number, fail: (l: number, w: string) => never): [string, string] {
  const m = /^([A-Za-z_][A-Za-z0-9_-]*):(?:\s+(.*))?$/.exec(body);
  if (!m) return fail(n, `expected 'key: value', got '${body}'`);
  return [m[1]!, scalar(m[2]?.trim() ?? '', n, fail)];
}

function scalar(value: string, n: number, fail: (l: number, w: string) => never): string {
  if (value.startsWith('"') || value.startsWith("'")) {
    const q = value[0]!;
    if (value.length < 2 || !value.endsWith(q)) fail(n, `unterminated quoted string ${value}`);
    const inner = value.slice(1, -1);
    if (q === "'") {
      if (/(^|[^'])'($|[^'])/.test(inner)) fail(n, `stray quote in ${value}`);
      return inner.replace(/''/g, "'");
    }
    if (/\\[^"\\]/.test(inner) || /(^|[^\\])"/.test(inner)) fail(n, `only \\" and \\\\ escapes are supported in ${value}`);
    return inner.replace(/\\(["\\])/g, '$1');
  }
  if (/^[&*!|>[{@`%]/.test(value)) fail(n, `unsupported YAML syntax '${value}' (use a plain or quoted string)`);
  return value;
}

/** The line without its comment (`#` at the start or after whitespace, outside quotes). */
function stripComment(line: string, n: number, fail: (l: number, w: string) => never): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if ((c === '"' || c === "'") && (i === 0 || /[\s:-]/.test(line[i - 1]!))) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  if (quote) fail(n, 'unterminated quoted string');
  return line;
}
