import type { Command } from '../command.ts';

/** A registry entry: what `synaptic <name>` is called, and how to load it. */
export interface CommandEntry {
  name: string;
  aliases?: string[];
  load(): Promise<Command>;
}

/**
 * The one registry of CLI commands, in `--help` order. Each command lives in its own file in this
 * folder and is imported only when it runs, so one command's start-up never pays for the others
 * (and a broken module breaks only its own command). Add new commands here.
 */
export const COMMANDS: CommandEntry[] = [
  { name: 'extract', load: async () => (await import('./extract.ts')).extractCommand },
  { name: 'update', load: async () => (await import('./update.ts')).updateCommand },
  { name: 'workspace', load: async () => (await import('./workspace.ts')).workspaceCommand },
  { name: 'migrate', load: async () => (await import('./migrate.ts')).migrateCommand },
  { name: 'serve', aliases: ['mcp'], load: async () => (await import('./serve.ts')).serveCommand },
  { name: 'explore', load: async () => (await import('./explore.ts')).exploreCommand },
  { name: 'export', load: async () => (await import('./export.ts')).exportCommand },
  { name: 'query', load: async () => (await import('./query.ts')).queryCommand },
  { name: 'memory', load: async () => (await import('./memory.ts')).memoryCommand },
  { name: 'session', load: async () => (await import('./session.ts')).sessionCommand },
  { name: 'compact', load: async () => (await import('./compact.ts')).compactCommand },
  { name: 'install', load: async () => (await import('./install.ts')).installCommand },
  { name: 'uninstall', load: async () => (await import('./uninstall.ts')).uninstallCommand },
  { name: 'data', load: async () => (await import('./data.ts')).dataCommand },
  { name: 'vault', load: async () => (await import('./vault.ts')).vaultCommand },
  { name: 'scope', load: async () => (await import('./scope.ts')).scopeCommand },
  { name: 'run', load: async () => (await import('./run.ts')).runCommand },
  { name: 'env', load: async () => (await import('./env.ts')).envCommand },
  { name: 'settings', load: async () => (await import('./settings.ts')).settingsCommand },
  { name: 'skills', load: async () => (await import('./skills.ts')).skillsCommand },
  { name: 'affected', load: async () => (await import('./affected.ts')).affectedCommand },
  { name: 'predict', load: async () => (await import('./predict.ts')).predictCommand },
  { name: 'hazards', load: async () => (await import('./hazards.ts')).hazardsCommand },
  { name: 'audit', load: async () => (await import('./audit.ts')).auditCommand },
  { name: 'refactor', load: async () => (await import('./refactor.ts')).refactorCommand },
  { name: 'prs', load: async () => (await import('./prs.ts')).prsCommand },
  { name: 'advise-sql', load: async () => (await import('./advise-sql.ts')).adviseSqlCommand },
];
