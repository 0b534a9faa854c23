import type { Command } from '../command.ts';

/**
 * The one registry of CLI commands, in `--help` order. Each command lives in its own file in this
 * folder; add it here.
 */
export const COMMANDS: Command[] = [];
