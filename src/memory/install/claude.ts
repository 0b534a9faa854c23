import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readText, writeTextAtomic, mkdirTracked, rmdirEmpty } from './files.ts';
import {
  appendElement,
  appendMember,
  applyInsertion,
  member,
  memberSpans,
  parseJsonText,
  removeSpan,
  type Insertion,
  type JsonNode,
} from './json-text.ts';
import { readManifest, writeManifest, type InstallEdit } from './manifest.ts';
import { shellCommand, type InstallOptions, type InstallReport } from './options.ts';

const HOOK_EVENTS = [
  { event: 'SessionStart', sub: 'session', args: ['session', '--json'] },
  { event: 'PreCompact', sub: 'compact', args: ['compact'] },
] as const;

/** Files the Claude Code install edits: MCP registration and hook settings. */
export function claudeFiles(opts: InstallOptions): { mcp: string; settings: string } {
  return opts.global
    ? { mcp: join(opts.home, '.claude.json'), settings: join(opts.home, '.claude', 'settings.json') }
    : { mcp: join(opts.project, '.mcp.json'), settings: join(opts.project, '.claude', 'settings.json') };
}

function parseRoot(file: string, text: string): JsonNode {
  let root: JsonNode;
  try {
    root = parseJsonText(text);
  } catch (err) {
    throw new SyntaxError(`Cannot install: ${file} is not valid JSON (${(err as Error).message.replace('Cannot parse JSON: ', '')}); fix it first, nothing was changed`);
  }
  if (root.kind !== 'object') throw new TypeError(`Cannot install: ${file} does not hold a JSON object; nothing was changed`);
  return root;
}

function expectKind(file: string, node: JsonNode | undefined, kind: 'object' | 'array', path: string): JsonNode | undefined {
  if (node && node.kind !== kind) throw new TypeError(`Cannot install: "${path}" in ${file} is not an ${kind}; fix it by hand, nothing was changed`);
  return node;
}

/** A hook entry belongs to us when its command runs synaptic's `session`/`compact`. */
export function isOurHookCommand(command: string, sub: 'session' | 'compact'): boolean {
  return new RegExp(`synaptic[^\\s"']*["']?(?:\\s+[^\\s]*main\\.js["']?)?\\s+${sub}\\b`).test(command);
}

function hookGroupIsOurs(group: JsonNode, sub: 'session' | 'compact', expected: string): boolean {
  const hooks = member(group, 'hooks')?.value;
  if (hooks?.kind !== 'array') return false;
  return hooks.elements!.some((h) => {
    const cmd = member(h, 'command')?.value;
    return cmd?.kind === 'string' && (cmd.value === expected || isOurHookCommand(cmd.value!, sub));
  });
}

interface PlannedEdit {
  what: string;
  insertion: Insertion;
}

/** The next missing piece for `file` (one insertion at a time, re-parsing between them). */
function nextEdit(file: string, text: string, kind: 'mcp' | 'hooks', opts: InstallOptions): PlannedEdit | null {
  const root = parseRoot(file, text);
  if (kind === 'mcp') {
    const servers = expectKind(file, member(root, 'mcpServers')?.value, 'object', 'mcpServers');
    const entry = { type: 'stdio', command: opts.command.command, args: [...opts.command.args, 'serve'] };
    if (!servers) return { what: 'mcp', insertion: appendMember(text, root, 'mcpServers', { synaptic: entry }) };
    if (member(servers, 'synaptic')) return null;
    return { what: 'mcp', insertion: appendMember(text, servers, 'synaptic', entry) };
  }
  const hooks = expectKind(file, member(root, 'hooks')?.value, 'object', 'hooks');
  for (const h of HOOK_EVENTS) {
    const command = shellCommand(opts.command, h.args);
    const group = { hooks: [{ type: 'command', command }] };
    if (!hooks) return { what: h.event, insertion: appendMember(text, root, 'hooks', { [h.event]: [group] }) };
    const list = expectKind(file, member(hooks, h.event)?.value, 'array', `hooks.${h.event}`);
    if (!list) return { what: h.event, insertion: appendMember(text, hooks, h.event, [group]) };
    if (list.elements!.some((g) => hookGroupIsOurs(g, h.sub, command))) continue;
    return { what: h.event, insertion: appendElement(text, list, group) };
  }
  return null;
}

function installFile(file: string, kind: 'mcp' | 'hooks', opts: InstallOptions, report: InstallReport, edits: InstallEdit[]): void {
  const before = readText(file);
  const blank = before === null || before.trim() === '';
  let text = blank ? '{}\n' : before;
  const made: InstallEdit[] = [];
  for (let guard = 0; guard < 4; guard++) {
    const edit = nextEdit(file, text, kind, opts);
    if (!edit) break;
    text = applyInsertion(text, edit.insertion);
    made.push({ target: 'claude', file, what: edit.what, inserted: edit.insertion.text, original: blank ? before : null, createdFile: blank, createdDir: null });
  }
  if (made.length === 0) {
    report.unchanged.push({ file, what: kind === 'mcp' ? 'MCP server "synaptic"' : 'SessionStart and PreCompact hooks' });
    return;
  }
  const createdDir = before === null ? mkdirTracked(dirname(file)) : null;
  for (const m of made) m.createdDir = createdDir;
  writeTextAtomic(file, text);
  edits.push(...made);
  for (const m of made) report.changed.push({ file, what: m.what === 'mcp' ? 'MCP server "synaptic"' : `${m.what} hook` });
}

/**
 * Registers the stdio server and the SessionStart/PreCompact hooks for Claude Code (project files, or
 * the user's with `global`). Inserts text only, never rewrites what is there; idempotent.
 */
export function installClaude(opts: InstallOptions): InstallReport {
  const files = claudeFiles(opts);
  const report: InstallReport = { changed: [], unchanged: [] };
  const edits = readManifest(opts.dataDir);
  // Check both files parse before writing either, so a bad file changes nothing.
  for (const f of [files.mcp, files.settings]) {
    const t = readText(f);
    if (t !== null && t.trim() !== '') parseRoot(f, t);
  }
  installFile(files.mcp, 'mcp', opts, report, edits);
  installFile(files.settings, 'hooks', opts, report, edits);
  writeManifest(opts.dataDir, edits);
  return report;
}

/** Removes one recorded insertion: verbatim when intact, else the entry it added, found by shape. */
function removeEdit(text: string, edit: InstallEdit, opts: InstallOptions): string {
  const at = text.lastIndexOf(edit.inserted);
  if (at >= 0 && text.indexOf(edit.inserted) === at) return text.slice(0, at) + text.slice(at + edit.inserted.length);
  return removeByShape(text, edit.what, opts);
}

/** Removes our entry for `what` wherever it is (a file edited since, or no manifest). */
function removeByShape(text: string, what: string, opts: InstallOptions): string {
  const root = parseJsonText(text);
  if (what === 'mcp') {
    const servers = member(root, 'mcpServers')?.value;
    const i = servers?.kind === 'object' ? servers.members!.findIndex((m) => m.key === 'synaptic') : -1;
    return i >= 0 ? removeSpan(text, memberSpans(servers!), i, servers!) : text;
  }
  const h = HOOK_EVENTS.find((e) => e.event === what);
  const list = member(member(root, 'hooks')?.value, what)?.value;
  if (!h || list?.kind !== 'array') return text;
  const i = list.elements!.findIndex((g) => hookGroupIsOurs(g, h.sub, shellCommand(opts.command, h.args)));
  return i >= 0 ? removeSpan(text, list.elements!, i, list) : text;
}

/** Removes exactly what installClaude added (to the same scope); leaves everything else as it was. */
export function uninstallClaude(opts: InstallOptions): InstallReport {
  const files = claudeFiles(opts);
  const report: InstallReport = { changed: [], unchanged: [] };
  const all = readManifest(opts.dataDir);
  const keep: InstallEdit[] = [];
  for (const file of [files.mcp, files.settings]) {
    const mine = all.filter((e) => e.target === 'claude' && e.file === file);
    let text = readText(file);
    if (text === null) {
      report.unchanged.push({ file, what: 'nothing to remove (file is gone)' });
      continue;
    }
    const before = text;
    const whats = mine.length > 0 ? mine.map((e) => e.what) : file === files.mcp ? ['mcp'] : HOOK_EVENTS.map((e) => e.event);
    if (mine.length > 0) for (const e of [...mine].reverse()) text = removeEdit(text, e, opts);
    else for (const w of whats) text = removeByShape(text, w, opts);
    const created = mine.find((e) => e.createdFile);
    if (created && text.trim() === '{}') {
      if (created.original === null) {
        rmSync(file, { force: true });
        if (created.createdDir) rmdirEmpty(dirname(file), created.createdDir);
      } else writeTextAtomic(file, created.original);
      report.changed.push({ file, what: created.original === null ? 'removed the file it created' : 'restored the original file' });
      continue;
    }
    if (text !== before) {
      writeTextAtomic(file, text);
      report.changed.push({ file, what: `removed ${whats.map((w) => (w === 'mcp' ? 'MCP server "synaptic"' : `${w} hook`)).join(', ')}` });
    } else report.unchanged.push({ file, what: 'no synaptic entries found' });
  }
  for (const e of all) if (e.target !== 'claude' || (e.file !== files.mcp && e.file !== files.settings)) keep.push(e);
  writeManifest(opts.dataDir, keep);
  return report;
}
