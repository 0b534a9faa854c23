import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command.ts';
import { canonicalFolder, exportLine, formatRef, hookSnippet, resolveFolder, SHELLS, unsetLine, VaultStore, type Shell } from '../../vault/index.ts';

const USAGE = `Usage: synaptic env [--shell bash|zsh|fish] [--path DIR] [--hook]

Prints shell code that exports the secrets the folder's trusted scope files grant, unsets the
ones an earlier run exported that no longer apply, and records what it did (SYNAPTIC_ENV_*), so
vaultstatus can report the shell hook as ambient. Meant for eval, not for reading:
  eval "$(synaptic env --shell bash)"         (bash, zsh)
  synaptic env --shell fish | source          (fish)
It refuses to print values to a terminal unless --force is given.

  --hook   print the prompt hook to add to your shell's startup file (no values)
--shell defaults to the basename of $SHELL.`;

export const envCommand: Command = {
  name: 'env',
  summary: 'print exports of the folder’s approved secrets for a shell hook',
  usage: USAGE,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      allowPositionals: false,
      options: { shell: { type: 'string' }, path: { type: 'string' }, hook: { type: 'boolean' }, force: { type: 'boolean' } },
    });
    const shellName = values.shell ?? basename(process.env.SHELL ?? '');
    if (!(SHELLS as readonly string[]).includes(shellName)) {
      throw new UsageError(`--shell must be one of ${SHELLS.join(', ')}${values.shell ? ` (got '${values.shell}')` : ' ($SHELL is not one of them)'}`);
    }
    const shell = shellName as Shell;
    if (values.hook) {
      process.stdout.write(hookSnippet(shell) + '\n');
      return 0;
    }
    if (process.stdout.isTTY && !values.force) {
      throw new Error(`Cannot print secret values to a terminal: use eval "$(synaptic env --shell ${shell})" (or --force)`);
    }
    const folder = canonicalFolder(values.path ?? '.');
    const { grants } = resolveFolder(folder);
    const secrets = new VaultStore().reveal(grants.map((g) => g.ref));
    const lines: string[] = [];
    for (const g of grants) lines.push(exportLine(shell, g.variable, secrets.get(formatRef(g.ref))!));
    secrets.clear();
    const now = new Set(grants.map((g) => g.variable));
    for (const old of (process.env.SYNAPTIC_ENV_NAMES ?? '').split(',')) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(old) && !now.has(old)) lines.push(unsetLine(shell, old));
    }
    lines.push(exportLine(shell, 'SYNAPTIC_ENV_HOOK', shell));
    lines.push(exportLine(shell, 'SYNAPTIC_ENV_DIR', folder));
    lines.push(exportLine(shell, 'SYNAPTIC_ENV_NAMES', [...now].join(',')));
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  },
};
