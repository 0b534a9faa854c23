import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { UsageError, type Command } from '../command.ts';
import { installClaude } from '../../memory/install/claude.ts';
import { installCodex } from '../../memory/install/codex.ts';
import { launchCommand, type InstallOptions, type InstallReport } from '../../memory/install/options.ts';
import { ensureDataDir } from '../../memory/open.ts';
import { dataDir } from '../../memory/paths.ts';
import { resolveProject } from '../../memory/project.ts';

const USAGE = `Usage: synaptic install <claude|codex> [--global] [--project DIR]

  synaptic install claude            .mcp.json (stdio server "synaptic") and .claude/settings.json
                                     (SessionStart: synaptic session --json; PreCompact: synaptic compact)
  synaptic install claude --global   the same in ~/.claude.json and ~/.claude/settings.json
  synaptic install codex             [mcp_servers.synaptic] in .codex/config.toml
  synaptic install codex --global    [mcp_servers.synaptic-<repo>-<hash>] in ~/.codex/config.toml,
                                     pinned to this repository
Existing files are edited in place: only the entries are added, everything else stays byte for byte.
Running it again changes nothing; 'synaptic uninstall' removes exactly what was added.
Set SYNAPTIC_BIN to choose the command the config runs (default: synaptic on PATH, else this node + CLI).`;

/** Parses `<claude|codex> [--global] [--project DIR]` into install options. */
export function installArgs(argv: string[], verb: string): { target: 'claude' | 'codex'; opts: InstallOptions } {
  let target: 'claude' | 'codex' | undefined;
  let global = false;
  let project: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--global') global = true;
    else if (a === '--project') {
      project = argv[++i];
      if (project === undefined) throw new UsageError('--project needs a value');
    } else if ((a === 'claude' || a === 'codex') && target === undefined) target = a;
    else throw new UsageError(`unexpected argument '${a}'`);
  }
  if (!target) throw new UsageError(`${verb} needs a target: claude or codex`);
  const dir = dataDir();
  ensureDataDir(dir);
  const opts: InstallOptions = {
    home: process.env.HOME || homedir(),
    project: resolveProject(project ? resolve(project) : undefined).path,
    global,
    dataDir: dir,
    command: launchCommand(),
  };
  return { target, opts };
}

export function printReport(report: InstallReport): void {
  for (const c of report.changed) process.stdout.write(`${c.file}: ${c.what}\n`);
  for (const u of report.unchanged) process.stdout.write(`${u.file}: unchanged, ${u.what}\n`);
}

export const installCommand: Command = {
  name: 'install',
  summary: 'register synaptic with Claude Code or Codex (server and memory hooks)',
  usage: USAGE,
  async run(argv) {
    const { target, opts } = installArgs(argv, 'install');
    const report = target === 'claude' ? installClaude(opts) : installCodex(opts);
    printReport(report);
    if (report.changed.length === 0) process.stdout.write('Already installed; nothing changed.\n');
    return 0;
  },
};


