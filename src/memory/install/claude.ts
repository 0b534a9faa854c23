import { join } from 'node:path';
import { hookPieces, type HookSpec } from './hooks-json.ts';
import { appendMember, member, memberSpans, parseJsonText, removeSpan } from './json-text.ts';
import { checkJsonFile, expectKind, installJsonFile, uninstallJsonFile, type JsonPiece } from './json-install.ts';
import { readManifest, writeManifest, type InstallEdit } from './manifest.ts';
import { emptyReport, portabilityNote, type InstallOptions, type InstallReport } from './options.ts';

/**
 * Claude Code runs SessionStart at startup, resume, clear and after a compaction (source on stdin),
 * and adds its additionalContext to the context; PreCompact's plain stdout is appended to the
 * compaction's instructions (Claude Code has no hookSpecificOutput for PreCompact and rejects one).
 */
export const CLAUDE_HOOKS: readonly HookSpec[] = [
  { event: 'SessionStart', sub: 'session', args: ['session', '--json'] },
  { event: 'PreCompact', sub: 'compact', args: ['compact'] },
];

/** Files the Claude Code install edits: MCP registration and hook settings. */
export function claudeFiles(opts: InstallOptions): { mcp: string; settings: string } {
  return opts.global
    ? { mcp: join(opts.home, '.claude.json'), settings: join(opts.home, '.claude', 'settings.json') }
    : { mcp: join(opts.project, '.mcp.json'), settings: join(opts.project, '.claude', 'settings.json') };
}

/** The `mcpServers.synaptic` stdio entry. */
function mcpPiece(opts: InstallOptions): JsonPiece {
  const entry = { type: 'stdio', command: opts.command.command, args: [...opts.command.args, 'serve'] };
  return {
    what: 'mcp',
    label: 'MCP server "synaptic"',
    insertion(file, text, root) {
      const servers = expectKind(file, member(root, 'mcpServers')?.value, 'object', 'mcpServers');
      if (!servers) return appendMember(text, root, 'mcpServers', { synaptic: entry });
      if (member(servers, 'synaptic')) return null;
      return appendMember(text, servers, 'synaptic', entry);
    },
    removeByShape(text) {
      const servers = member(parseJsonText(text), 'mcpServers')?.value;
      const i = servers?.kind === 'object' ? servers.members!.findIndex((m) => m.key === 'synaptic') : -1;
      return i >= 0 ? removeSpan(text, memberSpans(servers!), i, servers!) : text;
    },
  };
}

function pieces(opts: InstallOptions): Array<{ file: string; pieces: JsonPiece[] }> {
  const files = claudeFiles(opts);
  return [
    { file: files.mcp, pieces: [mcpPiece(opts)] },
    { file: files.settings, pieces: hookPieces(CLAUDE_HOOKS, opts.command) },
  ];
}

/**
 * Registers the stdio server and the SessionStart/PreCompact hooks for Claude Code (project files, or
 * the user's with `global`). Inserts text only, never rewrites what is there; idempotent.
 */
export function installClaude(opts: InstallOptions): InstallReport {
  const report = emptyReport();
  const edits = readManifest(opts.dataDir);
  const files = pieces(opts);
  // Check both files parse before writing either, so a bad file changes nothing.
  for (const f of files) checkJsonFile(f.file);
  for (const f of files) installJsonFile('claude', f.file, f.pieces, report, edits);
  writeManifest(opts.dataDir, edits);
  if (report.changed.length > 0 && !opts.global) {
    const note = portabilityNote(opts.command, ['.mcp.json', '.claude/settings.json'], 'claude', opts.project);
    if (note) report.notes.push(note);
    report.notes.push(
      'Claude Code asks once whether to use the project\'s .mcp.json servers: start claude in this repository and approve "synaptic" ' +
        '(or add "enabledMcpjsonServers": ["synaptic"] to ~/.claude/settings.json).',
    );
    // Claude Code 2.1 finds .mcp.json in parent folders but reads .claude/settings.json only in its start folder.
    report.notes.push(
      'Claude Code runs the memory hooks of .claude/settings.json only when started at the repository root (the server connects from subfolders too); ' +
        'for hooks in every folder, run synaptic install claude --global.',
    );
  }
  return report;
}

/** Removes exactly what installClaude added (to the same scope); leaves everything else as it was. */
export function uninstallClaude(opts: InstallOptions): InstallReport {
  const report = emptyReport();
  const all = readManifest(opts.dataDir);
  const used: InstallEdit[] = [];
  for (const f of pieces(opts)) used.push(...uninstallJsonFile('claude', f.file, f.pieces, all, report));
  writeManifest(opts.dataDir, all.filter((e) => !used.includes(e)));
  return report;
}
