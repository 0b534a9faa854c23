import type { Command } from '../command.ts';
import { exploreCommand } from './explore.ts';
import { exportCommand } from './export.ts';
import { extractCommand } from './extract.ts';
import { updateCommand } from './update.ts';
import { envCommand } from './env.ts';
import { runCommand } from './run.ts';
import { scopeCommand } from './scope.ts';
import { settingsCommand } from './settings.ts';
import { skillsCommand } from './skills.ts';
import { vaultCommand } from './vault.ts';
import { serveCommand } from './serve.ts';
import { memoryCommand } from './memory.ts';
import { sessionCommand } from './session.ts';
import { compactCommand } from './compact.ts';
import { installCommand } from './install.ts';
import { uninstallCommand } from './uninstall.ts';
import { dataCommand } from './data.ts';

/**
 * The one registry of CLI commands, in `--help` order. Each command lives in its own file in this
 * folder; add it here.
 */
export const COMMANDS: Command[] = [extractCommand, updateCommand, serveCommand, exploreCommand, exportCommand, vaultCommand, scopeCommand, runCommand, envCommand, settingsCommand, skillsCommand, memoryCommand, sessionCommand, compactCommand, installCommand, uninstallCommand, dataCommand];
