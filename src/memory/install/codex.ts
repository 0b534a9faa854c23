import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { mkdirTracked, readText, rmdirEmpty, writeTextAtomic } from './files.ts';
import { readManifest, writeManifest } from './manifest.ts';
import type { InstallOptions, InstallReport } from './options.ts';

/**
 * Codex reads MCP servers from TOML (`[mcp_servers.<name>]`). The file is edited as text, never
 * round-tripped through a TOML library, so the user's comments, ordering and spacing stay byte for
 * byte: install appends one table at the end; uninstall removes exactly that text.
 */

/** The Codex config file: the project's `.codex/config.toml`, or `$CODEX_HOME/config.toml` with `global`. */
export function codexFile(opts: InstallOptions, env: NodeJS.ProcessEnv = process.env): string {
  if (!opts.global) return join(opts.project, '.codex', 'config.toml');
  return join(opts.codexHome ?? env.CODEX_HOME ?? join(opts.home, '.codex'), 'config.toml');
}

/** The server's table name: `synaptic` in a project file; per repository (`synaptic-<name>-<hash>`) in the user's. */
export function codexServerName(opts: InstallOptions): string {
  if (!opts.global) return 'synaptic';
  const name = basename(opts.project).replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'repo';
  const hash = createHash('sha256').update(opts.project).digest('hex').slice(0, 6);
  return `synaptic-${name}-${hash}`;
}

function tomlString(s: string): string {
  return JSON.stringify(s); // a JSON string is a valid TOML basic string
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where `[mcp_servers.<name>]` (quoted or not) starts, or -1. */
function headerIndex(text: string, name: string): number {
  const re = new RegExp(`^[ \\t]*\\[[ \\t]*mcp_servers[ \\t]*\\.[ \\t]*(?:${escapeRe(name)}|"${escapeRe(name)}"|'${escapeRe(name)}')[ \\t]*\\][ \\t]*(?:#.*)?$`, 'm');
  const m = re.exec(text);
  return m ? m.index : -1;
}

/** A definition of `name` in a form we do not edit (dotted keys or an inline table). */
function otherDefinition(text: string, name: string): boolean {
  const n = escapeRe(name);
  return (
    new RegExp(`^[ \\t]*mcp_servers[ \\t]*\\.[ \\t]*"?${n}"?[ \\t]*[.=]`, 'm').test(text) ||
    new RegExp(`^[ \\t]*mcp_servers[ \\t]*=`, 'm').test(text) ||
    new RegExp(`^[ \\t]*\\[[ \\t]*mcp_servers[ \\t]*\\][\\s\\S]*?^[ \\t]*"?${n}"?[ \\t]*=`, 'm').test(text)
  );
}

/** The table install appends (with the separator it needs after `existing`). */
export function codexBlock(existing: string, opts: InstallOptions): string {
  const name = codexServerName(opts);
  const args = [...opts.command.args, 'serve'];
  const lines = [`[mcp_servers.${name}]`, `command = ${tomlString(opts.command.command)}`];
  if (opts.global) {
    args.push('--graph', join(opts.project, 'synaptic-out', 'graph.json'));
    lines.push(`args = [${args.map(tomlString).join(', ')}]`, `env = { SYNAPTIC_PROJECT_DIR = ${tomlString(opts.project)} }`);
  } else lines.push(`args = [${args.map(tomlString).join(', ')}]`);
  const sep = existing.length === 0 ? '' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  return `${sep}${lines.join('\n')}\n`;
}

/** Adds the `[mcp_servers.*]` table for synaptic; idempotent. */
export function installCodex(opts: InstallOptions): InstallReport {
  const file = codexFile(opts);
  const name = codexServerName(opts);
  const report: InstallReport = { changed: [], unchanged: [] };
  const before = readText(file);
  const text = before ?? '';
  if (headerIndex(text, name) >= 0) {
    report.unchanged.push({ file, what: `MCP server "${name}" (already present)` });
    return report;
  }
  if (otherDefinition(text, name)) {
    throw new TypeError(
      `Cannot install: ${file} defines mcp_servers with dotted keys or an inline table; add [mcp_servers.${name}] by hand (command = "synaptic", args = ["serve"]), nothing was changed`,
    );
  }
  const block = codexBlock(text, opts);
  const createdDir = before === null ? mkdirTracked(dirname(file)) : null;
  writeTextAtomic(file, text + block);
  const edits = readManifest(opts.dataDir);
  edits.push({ target: 'codex', file, what: name, inserted: block, original: before, createdFile: before === null, createdDir });
  writeManifest(opts.dataDir, edits);
  report.changed.push({ file, what: `MCP server "${name}"` });
  return report;
}

/**
 * Removes the table from its header through its last key line (fallback when the block was edited
 * since install): blank lines and comments before the next table stay, as they may be the user's.
 */
function removeTable(text: string, name: string): string {
  const start = headerIndex(text, name);
  if (start < 0) return text;
  let end = text.indexOf('\n', start);
  end = end < 0 ? text.length : end + 1;
  for (let pos = end; pos < text.length; ) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 ? text.length : nl + 1;
    const line = text.slice(pos, lineEnd).trim();
    if (line.startsWith('[')) break;
    if (line !== '' && !line.startsWith('#')) end = lineEnd;
    pos = lineEnd;
  }
  // Take the blank line that separated the table from what came before it, as install adds one.
  let from = start;
  if (text.slice(0, from).endsWith('\n\n')) from -= 1;
  return text.slice(0, from) + text.slice(end);
}

/** Removes exactly what installCodex added. */
export function uninstallCodex(opts: InstallOptions): InstallReport {
  const file = codexFile(opts);
  const name = codexServerName(opts);
  const report: InstallReport = { changed: [], unchanged: [] };
  const all = readManifest(opts.dataDir);
  const mine = all.filter((e) => e.target === 'codex' && e.file === file && e.what === name);
  const text = readText(file);
  const keep = all.filter((e) => !mine.includes(e));
  if (text === null) {
    writeManifest(opts.dataDir, keep);
    report.unchanged.push({ file, what: 'nothing to remove (file is gone)' });
    return report;
  }
  let next = text;
  for (const e of [...mine].reverse()) {
    const at = next.lastIndexOf(e.inserted);
    next = at >= 0 ? next.slice(0, at) + next.slice(at + e.inserted.length) : removeTable(next, name);
  }
  if (mine.length === 0) next = removeTable(next, name);
  const created = mine.find((e) => e.createdFile);
  if (created && next.trim() === '') {
    rmSync(file, { force: true });
    if (created.createdDir) rmdirEmpty(dirname(file), created.createdDir);
    report.changed.push({ file, what: 'removed the file it created' });
  } else if (next !== text) {
    writeTextAtomic(file, next);
    report.changed.push({ file, what: `removed MCP server "${name}"` });
  } else report.unchanged.push({ file, what: `no [mcp_servers.${name}] table found` });
  writeManifest(opts.dataDir, keep);
  return report;
}
