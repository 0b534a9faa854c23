import { basename, dirname, join } from 'node:path';
import type { InstallOptions } from './options.ts';

/**
 * Codex reads MCP servers from TOML (`[mcp_servers.<name>]`). The file is edited as text, never
 * round-tripped through a TOML library, so the user's comments, ordering and spacing stay byte for
 * byte: install appends one table at the end; uninstall removes exactly that text.
 */

export function tomlString(s: string): string {
  return JSON.stringify(s); // a JSON string is a valid TOML basic string
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function keyAlternatives(key: string): string {
  const k = escapeRe(key);
  return `(?:${k}|"${k}"|'${k}')`;
}

/** Where the table header `[<table>.<key>]` (key bare or quoted) starts, or -1. */
export function tableIndex(text: string, table: string, key: string): number {
  const re = new RegExp(`^[ \\t]*\\[[ \\t]*${escapeRe(table)}[ \\t]*\\.[ \\t]*${keyAlternatives(key)}[ \\t]*\\][ \\t]*(?:#.*)?$`, 'm');
  const m = re.exec(text);
  return m ? m.index : -1;
}

/** Where `[mcp_servers.<name>]` (quoted or not) starts, or -1. */
export function headerIndex(text: string, name: string): number {
  return tableIndex(text, 'mcp_servers', name);
}

/** The text of the table starting at `start` (its header through the line before the next header). */
function tableText(text: string, start: number): string {
  const rest = text.slice(start);
  const body = rest.indexOf('\n') + 1;
  if (body === 0) return rest;
  const next = /^[ \t]*\[/m.exec(rest.slice(body));
  return next ? rest.slice(0, body + next.index) : rest;
}

/** A definition of `name` in a form we do not edit (dotted keys or an inline table). */
export function otherDefinition(text: string, name: string): boolean {
  const n = escapeRe(name);
  return (
    new RegExp(`^[ \\t]*mcp_servers[ \\t]*\\.[ \\t]*"?${n}"?[ \\t]*[.=]`, 'm').test(text) ||
    new RegExp(`^[ \\t]*mcp_servers[ \\t]*=`, 'm').test(text) ||
    new RegExp(`^[ \\t]*\\[[ \\t]*mcp_servers[ \\t]*\\][\\s\\S]*?^[ \\t]*"?${n}"?[ \\t]*=`, 'm').test(text)
  );
}

/** Every `[mcp_servers.<name>]` table pinned to a project (`SYNAPTIC_PROJECT_DIR` in its env): name -> project. */
export function pinnedServers(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const header = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))[ \t]*\][ \t]*(?:#.*)?$/gm;
  for (let m = header.exec(text); m; m = header.exec(text)) {
    const pin = /SYNAPTIC_PROJECT_DIR[ \t]*=[ \t]*("(?:[^"\\\n]|\\.)*")/.exec(tableText(text, m.index));
    if (!pin) continue;
    try {
      found.set(m[1] ?? m[2] ?? m[3]!, JSON.parse(pin[1]!) as string);
    } catch {
      // a pin in a TOML-only escape form: not one we wrote
    }
  }
  return found;
}

function slug(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'repo';
}

export interface ServerName {
  name: string;
  /** The table is already there (for this project). */
  present: boolean;
  /** Set when the name is not the plain `synaptic-<repo>`: that name, and what already holds it. */
  taken?: { plain: string; by: string };
}

/**
 * The server's table name: `synaptic` in a project file. In the user's file it is per repository,
 * `synaptic-<repo>` (the spec's name), found again by its pin; when another repository with the same
 * folder name holds it, `synaptic-<parent>-<repo>`, then `synaptic-<repo>-2`, `-3`, ...
 */
export function codexServerName(opts: InstallOptions, text: string): ServerName {
  if (!opts.global) return { name: 'synaptic', present: headerIndex(text, 'synaptic') >= 0 };
  const pins = pinnedServers(text);
  for (const [name, project] of pins) if (project === opts.project) return { name, present: true };
  const repo = slug(basename(opts.project));
  const candidates = [`synaptic-${repo}`, `synaptic-${slug(basename(dirname(opts.project)))}-${repo}`];
  for (let i = 2; candidates.length < 100; i++) candidates.push(`synaptic-${repo}-${i}`);
  const free = (n: string) => headerIndex(text, n) < 0 && !otherDefinition(text, n);
  const name = candidates.find(free) ?? `synaptic-${repo}-${Date.now()}`;
  const first = candidates[0]!;
  return name === first ? { name, present: false } : { name, present: false, taken: { plain: first, by: pins.get(first) ?? 'an entry of yours' } };
}

/** The table install appends (with the separator it needs after `existing`). */
export function codexBlock(existing: string, opts: InstallOptions, name: string): string {
  const args = [...opts.command.args, 'serve'];
  const lines = [`[mcp_servers.${name}]`, `command = ${tomlString(opts.command.command)}`];
  if (opts.global) {
    args.push('--graph', join(opts.project, 'synaptic-out', 'graph.json'));
    lines.push(`args = [${args.map(tomlString).join(', ')}]`, `env = { SYNAPTIC_PROJECT_DIR = ${tomlString(opts.project)} }`);
  } else lines.push(`args = [${args.map(tomlString).join(', ')}]`);
  const sep = existing.length === 0 ? '' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  return `${sep}${lines.join('\n')}\n`;
}

/**
 * Removes the table from its header through its last key line (fallback when the block was edited
 * since install): blank lines and comments before the next table stay, as they may be the user's.
 */
export function removeTable(text: string, name: string): string {
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

/** Codex has recorded `project` as trusted (`[projects."<path>"]` with `trust_level = "trusted"`). */
export function projectTrusted(configText: string | null, project: string): boolean {
  if (configText === null) return false;
  const start = tableIndex(configText, 'projects', project);
  return start >= 0 && /^[ \t]*trust_level[ \t]*=[ \t]*["']trusted["']/m.test(tableText(configText, start));
}
