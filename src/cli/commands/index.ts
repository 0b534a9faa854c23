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

/**
 * The one registry of CLI commands, in `--help` order. Each command lives in its own file in this
 * folder; add it here.
 */
export const COMMANDS: Command[] = [extractCommand, updateCommand, exploreCommand, exportCommand, vaultCommand, scopeCommand, runCommand, envCommand, settingsCommand, skillsCommand];
