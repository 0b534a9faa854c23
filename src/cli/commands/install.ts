import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { UsageError, type Command } from '../command.ts';
import { git } from '../../extract/git.node.ts';
import { installClaude } from '../../memory/install/claude.ts';
import { installCodex } from '../../memory/install/codex.ts';
import { addOutputToGitignore, gitignoreCoversOutput, OUTPUT_IGNORE } from '../../memory/install/gitignore.ts';
import { readText } from '../../memory/install/files.ts';
import { launchCommand, type InstallOptions, type InstallReport } from '../../memory/install/options.ts';
import { PACKAGE_NAME } from '../../graph/package.node.ts';
import { ensureDataDir } from '../../memory/open.ts';
import { dataDir } from '../../memory/paths.ts';
import { resolveProject } from '../../memory/project.ts';

const USAGE = `Usage: synaptic install <claude|codex> [--global] [--project DIR] [--local-bin] [--gitignore | --no-gitignore]

  synaptic install claude            .mcp.json (stdio server "synaptic") and .claude/settings.json
                                     (SessionStart: synaptic session --json; PreCompact: synaptic compact)
  synaptic install claude --global   the same in ~/.claude.json and ~/.claude/settings.json
  synaptic install codex             [mcp_servers.synaptic] in .codex/config.toml and a SessionStart
                                     hook in .codex/hooks.json (Codex loads both once it trusts the
                                     project, and runs the hook once you trust it in /hooks)
  synaptic install codex --global    [mcp_servers.synaptic-<repo>] in ~/.codex/config.toml, pinned to
                                     this repository, and the hook in ~/.codex/hooks.json
Existing files are edited in place: only the entries are added, everything else stays byte for byte.
Running it again changes nothing; 'synaptic uninstall' removes exactly what was added.
A project install offers to add ${OUTPUT_IGNORE} to .gitignore: it asks on a terminal, --gitignore adds
it without asking, --no-gitignore never does; elsewhere it prints a hint. Uninstall leaves .gitignore.
The config runs \`npx -y ${PACKAGE_NAME}\` (serve, session, compact), which every machine with Node and npm
can run, from any folder: npx takes the repository's own ${PACKAGE_NAME} when it is a dependency there,
else installs it on the first start. --local-bin writes the bare \`synaptic\` instead (it must be on PATH,
e.g. npm install -g ${PACKAGE_NAME}); SYNAPTIC_BIN, if set, is written as given.`;

export type GitignoreMode = 'ask' | 'add' | 'skip';

/**
 * Parses `<claude|codex> [--global] [--project DIR] [--local-bin] [--gitignore|--no-gitignore]` into
 * install options. Uninstall takes --local-bin too, as a no-op: it removes what install added,
 * whichever command that was, so it never needs synaptic on PATH.
 */
export function installArgs(argv: string[], verb: string): { target: 'claude' | 'codex'; opts: InstallOptions; gitignore: GitignoreMode } {
  let target: 'claude' | 'codex' | undefined;
  let global = false;
  let project: string | undefined;
  let gitignore: GitignoreMode = 'ask';
  let localBin = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--global') global = true;
    else if (a === '--local-bin') localBin = true;
    else if (a === '--project') {
      project = argv[++i];
      if (project === undefined) throw new UsageError('--project needs a value');
    } else if (a === '--gitignore' && verb === 'install') gitignore = 'add';
    else if (a === '--no-gitignore' && verb === 'install') gitignore = 'skip';
    else if ((a === 'claude' || a === 'codex') && target === undefined) target = a;
    else throw new UsageError(`unexpected argument '${a}'`);
  }
  if (!target) throw new UsageError(`${verb} needs a target: claude or codex`);
  const dir = dataDir();
  ensureDataDir(dir);
  const root = resolveProject(project ? resolve(project) : undefined).path;
  const opts: InstallOptions = {
    home: process.env.HOME || homedir(),
    project: root,
    global,
    dataDir: dir,
    command: launchCommand(root, localBin && verb === 'install'),
  };
  return { target, opts, gitignore };
}

/** The file lines, then `summary` (if any), then the notes. */
export function printReport(report: InstallReport, summary?: string): void {
  for (const c of report.changed) process.stdout.write(`${c.file}: ${c.what}\n`);
  for (const u of report.unchanged) process.stdout.write(`${u.file}: unchanged, ${u.what}\n`);
  if (summary) process.stdout.write(`${summary}\n`);
  for (const n of report.notes) process.stdout.write(`note: ${n}\n`);
}

async function askYes(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return !/^\s*n/i.test(await rl.question(question));
  } finally {
    rl.close();
  }
}

/**
 * Offers `synaptic-out/` for a git repository's .gitignore unless something already ignores it:
 * added with `add`, asked with `ask` on a terminal, else a hint (never written silently). Returns
 * the line to print, or null.
 */
export async function offerGitignore(
  project: string,
  mode: GitignoreMode,
  ask: ((question: string) => Promise<boolean>) | null = process.stdin.isTTY && process.stdout.isTTY ? askYes : null,
): Promise<string | null> {
  if (mode === 'skip' || !existsSync(join(project, '.git'))) return null;
  if (gitignoreCoversOutput(readText(join(project, '.gitignore')))) return null;
  if (git(project, ['check-ignore', '--', OUTPUT_IGNORE])?.trim()) return null; // ignored elsewhere (a nested or global excludes file)
  let add = mode === 'add';
  if (mode === 'ask') {
    if (!ask) return `hint: ${OUTPUT_IGNORE} (the graph synaptic extract writes) is not in .gitignore: add it, or run install again with --gitignore.`;
    add = await ask(`Add ${OUTPUT_IGNORE} (the graph synaptic extract writes) to ${join(project, '.gitignore')}? [Y/n] `);
  }
  if (!add) return null;
  const { file, created } = addOutputToGitignore(project);
  return `${file}: ${created ? 'created with' : 'added'} ${OUTPUT_IGNORE}`;
}

export const installCommand: Command = {
  name: 'install',
  summary: 'register synaptic with Claude Code or Codex (server and memory hooks)',
  usage: USAGE,
  async run(argv) {
    const { target, opts, gitignore } = installArgs(argv, 'install');
    const report = target === 'claude' ? installClaude(opts) : installCodex(opts);
    printReport(report, report.changed.length === 0 ? 'Already installed; nothing changed.' : undefined);
    if (!opts.global) {
      const line = await offerGitignore(opts.project, gitignore);
      if (line) process.stdout.write(`${line}\n`);
    }
    return 0;
  },
};
