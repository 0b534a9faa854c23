import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { codexBlock, codexServerName, headerIndex, otherDefinition, pinnedServers, projectTrusted, removeTable } from './codex-toml.ts';
import { mkdirTracked, readText, rmdirEmpty, writeTextAtomic } from './files.ts';
import { hookPieces, type HookSpec } from './hooks-json.ts';
import { checkJsonFile, installJsonFile, uninstallJsonFile } from './json-install.ts';
import { readManifest, writeManifest, type InstallEdit } from './manifest.ts';
import { emptyReport, portabilityNote, type InstallOptions, type InstallReport } from './options.ts';

/**
 * Codex runs SessionStart at startup, resume, clear and after a compaction, and adds its
 * additionalContext to the next model turn, so one hook carries memory in and, after a compaction,
 * the request to store what the summary settled. No PreCompact hook: Codex ignores its plain stdout
 * and accepts only continue/stopReason/suppressOutput/systemMessage (a line for the user), so it can
 * reach neither the model nor the summarizer.
 */
export const CODEX_HOOKS: readonly HookSpec[] = [{ event: 'SessionStart', sub: 'session', args: ['session', '--json'] }];

function codexHome(opts: InstallOptions, env: NodeJS.ProcessEnv): string {
  return opts.codexHome ?? env.CODEX_HOME ?? join(opts.home, '.codex');
}

/** The Codex config file: the project's `.codex/config.toml`, or `$CODEX_HOME/config.toml` with `global`. */
export function codexFile(opts: InstallOptions, env: NodeJS.ProcessEnv = process.env): string {
  return opts.global ? join(codexHome(opts, env), 'config.toml') : join(opts.project, '.codex', 'config.toml');
}

/** The Codex hooks file next to the config file. */
export function codexHooksFile(opts: InstallOptions, env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(codexFile(opts, env)), 'hooks.json');
}

/** What the user still has to do in Codex itself: trust the project (project installs) and the hook. */
function trustNotes(opts: InstallOptions, hookAdded: boolean, env: NodeJS.ProcessEnv): string[] {
  const notes: string[] = [];
  if (!opts.global) {
    const userConfig = join(codexHome(opts, env), 'config.toml');
    if (projectTrusted(readText(userConfig), opts.project)) notes.push(`Codex trusts ${opts.project}, so it reads .codex/config.toml and .codex/hooks.json there.`);
    else {
      notes.push(
        `Codex reads .codex/ only in a project it trusts, and has not recorded ${opts.project} as trusted: start codex there and trust the folder when asked ` +
          `(Codex then writes [projects."${opts.project}"] trust_level = "trusted" to ${userConfig}). Until then it loads neither the server nor the hook.`,
      );
    }
  }
  if (hookAdded) {
    notes.push(
      'Codex runs a new hook only after you review it: in codex, open /hooks and trust the synaptic SessionStart hook ' +
        '(until then it is skipped; codex exec --dangerously-bypass-hook-trust runs it for one invocation).',
    );
  }
  return notes;
}

/**
 * Adds the `[mcp_servers.*]` table for synaptic and the SessionStart hook (hooks.json next to the
 * config); idempotent. Says which Codex trust steps remain.
 */
export function installCodex(opts: InstallOptions, env: NodeJS.ProcessEnv = process.env): InstallReport {
  const file = codexFile(opts, env);
  const hooksFile = codexHooksFile(opts, env);
  const report = emptyReport();
  const before = readText(file);
  const text = before ?? '';
  const server = codexServerName(opts, text);
  if (!server.present && otherDefinition(text, server.name)) {
    throw new TypeError(
      `Cannot install: ${file} defines mcp_servers with dotted keys or an inline table; add [mcp_servers.${server.name}] by hand (command = "synaptic", args = ["serve"]), nothing was changed`,
    );
  }
  checkJsonFile(hooksFile);
  const edits = readManifest(opts.dataDir);
  if (server.present) report.unchanged.push({ file, what: `MCP server "${server.name}" (already present)` });
  else {
    const block = codexBlock(text, opts, server.name);
    const createdDir = before === null ? mkdirTracked(dirname(file)) : null;
    writeTextAtomic(file, text + block);
    edits.push({ target: 'codex', file, what: server.name, inserted: block, original: before, createdFile: before === null, createdDir });
    report.changed.push({ file, what: `MCP server "${server.name}"` });
    if (server.taken) report.notes.push(`Named the server "${server.name}" because "${server.taken.plain}" already serves ${server.taken.by}.`);
  }
  const changedBefore = report.changed.length;
  installJsonFile('codex', hooksFile, hookPieces(CODEX_HOOKS, opts.command), report, edits);
  writeManifest(opts.dataDir, edits);
  if (report.changed.length > 0 && !opts.global) {
    const note = portabilityNote(opts.command, ['.codex/config.toml', '.codex/hooks.json'], 'codex', opts.project);
    if (note) report.notes.push(note);
  }
  report.notes.push(...trustNotes(opts, report.changed.length > changedBefore, env));
  return report;
}

/** Removes the table (exactly the inserted text, else the table found by its header). */
function uninstallTable(opts: InstallOptions, file: string, all: InstallEdit[], report: InstallReport): InstallEdit[] {
  const text = readText(file);
  const name = text === null ? null : opts.global ? ([...pinnedServers(text)].find(([, p]) => p === opts.project)?.[0] ?? null) : 'synaptic';
  const mine = all.filter((e) => e.target === 'codex' && e.file === file && (name === null || e.what === name));
  if (text === null || name === null) {
    report.unchanged.push({ file, what: text === null ? 'nothing to remove (file is gone)' : `no [mcp_servers.*] table pinned to ${opts.project}` });
    return text === null ? mine : [];
  }
  let next = text;
  for (const e of [...mine].reverse()) {
    const at = next.lastIndexOf(e.inserted);
    next = at >= 0 ? next.slice(0, at) + next.slice(at + e.inserted.length) : removeTable(next, name);
  }
  if (mine.length === 0 || headerIndex(next, name) >= 0) next = removeTable(next, name);
  const created = mine.find((e) => e.createdFile);
  if (created && next.trim() === '') {
    rmSync(file, { force: true });
    if (created.createdDir) rmdirEmpty(dirname(file), created.createdDir);
    report.changed.push({ file, what: 'removed the file it created' });
  } else {
    if (next !== text) {
      writeTextAtomic(file, next);
      report.changed.push({ file, what: `removed MCP server "${name}"` });
    } else report.unchanged.push({ file, what: `no [mcp_servers.${name}] table found` });
    // Another repository's table keeps the file: the last uninstall deletes what the first created.
    const heir = created && all.find((e) => e.target === 'codex' && e.file === file && !mine.includes(e));
    if (heir) Object.assign(heir, { createdFile: true, original: created.original, createdDir: created.createdDir });
  }
  return mine;
}

/**
 * Removes exactly what installCodex added. The user's hooks.json serves every repository installed
 * with --global, so its hook stays while another repository's table remains.
 */
export function uninstallCodex(opts: InstallOptions, env: NodeJS.ProcessEnv = process.env): InstallReport {
  const file = codexFile(opts, env);
  const hooksFile = codexHooksFile(opts, env);
  const report = emptyReport();
  const all = readManifest(opts.dataDir);
  const used = uninstallTable(opts, file, all, report);
  const others = opts.global ? [...pinnedServers(readText(file) ?? '').keys()] : [];
  if (others.length > 0) report.unchanged.push({ file: hooksFile, what: `kept the SessionStart hook: ${others.join(', ')} still use it` });
  else used.push(...uninstallJsonFile('codex', hooksFile, hookPieces(CODEX_HOOKS, opts.command), all, report));
  // The folder the config install created also held hooks.json when the config was removed.
  for (const e of used) if (e.createdDir && !existsSync(e.file)) rmdirEmpty(dirname(e.file), e.createdDir);
  writeManifest(opts.dataDir, all.filter((e) => !used.includes(e)));
  return report;
}
