import type { Command } from '../command.ts';
import { uninstallClaude } from '../../memory/install/claude.ts';
import { uninstallCodex } from '../../memory/install/codex.ts';
import { installArgs, printReport } from './install.ts';
import { PACKAGE_NAME } from '../../graph/package.node.ts';

const USAGE = `Usage: synaptic uninstall <claude|codex> [--global] [--project DIR] [--local-bin]

Removes exactly what 'synaptic install' added to the same files (the server entry and the hooks),
leaving everything else as it was; a file the install created is deleted again. It finds them
whichever command they run (npx -y ${PACKAGE_NAME}, synaptic from --local-bin, SYNAPTIC_BIN), so
--local-bin changes nothing here. With --global, the Codex hook in ~/.codex/hooks.json stays while
another repository's entry still uses it. .gitignore is left alone: synaptic-out/ is still build output.`;

export const uninstallCommand: Command = {
  name: 'uninstall',
  summary: 'remove what synaptic install added',
  usage: USAGE,
  async run(argv) {
    const { target, opts } = installArgs(argv, 'uninstall');
    printReport(target === 'claude' ? uninstallClaude(opts) : uninstallCodex(opts));
    return 0;
  },
};
