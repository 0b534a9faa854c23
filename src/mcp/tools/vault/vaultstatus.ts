import { z } from 'zod';
import { databaseUrl } from '../../../memory/database.ts';
import { canonicalFolder, resolveFolder, type Env } from '../../../vault/index.ts';
import { toolResult, type ToolDefinition } from '../../tool.ts';

const inputSchema = z.object({
  path: z.string().optional().describe('Absolute folder.'),
});

const scopeSchema = z.object({
  path: z.string(),
  scope: z.string(),
  trusted: z.boolean(),
  changed: z.boolean(),
  env: z.array(z.string()),
  denied: z.array(z.string()),
  error: z.string().nullable(),
});

const outputSchema = z.object({
  path: z.string(),
  backend: z.literal('encrypted'),
  available: z.array(z.string()),
  unavailable: z.array(z.string()),
  elsewhere: z.number().int(),
  ambient: z.enum(['ready', 'stale', 'off']),
  shell: z.enum(['bash', 'zsh', 'fish']).nullable(),
  scopes: z.array(scopeSchema),
  warnings: z.array(z.string()),
  note: z.string(),
});

/** The folder vaultstatus reports on: the argument, then SYNAPTIC_PROJECT_DIR (or SYNAPSE_PROJECT_DIR), then cwd. */
export function statusFolder(path: string | undefined, cwd: string, env: Env): string {
  const chosen = path || env.SYNAPTIC_PROJECT_DIR || env.SYNAPSE_PROJECT_DIR || cwd;
  return canonicalFolder(chosen, cwd);
}

/** Said in team mode: memory is shared, secrets are not. */
export const TEAM_NOTE =
  'Team mode: memory is shared through the team database (SYNAPTIC_DATABASE_URL), but the vault stays on this machine: no secret, name or value, is ever written to the shared database.';

function teamMode(env: Env): boolean {
  try {
    return databaseUrl(env as NodeJS.ProcessEnv) !== null;
  } catch {
    return true; // a malformed URL is still an attempt at team mode: say where secrets stay
  }
}

/** `vaultstatus`: secret names and scope trust for a folder; never values. */
export function vaultStatusTool(options: { cwd: string; env: Env }): ToolDefinition<typeof inputSchema> {
  return {
    name: 'vaultstatus',
    title: 'Vault status',
    description:
      'Why a command lacks a credential: the secret names the vault resolves for a folder (available), those its .synaptic.yaml scope files ask for but cannot reach (unavailable), ' +
      "a count of secrets held elsewhere and each scope file's trust state. Never returns a value.",
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: ({ path }) => {
      const folder = statusFolder(path, options.cwd, options.env);
      const { status } = resolveFolder(folder, options.env);
      if (teamMode(options.env)) status.note = `${status.note} ${TEAM_NOTE}`;
      return toolResult(JSON.stringify(status, null, 2), { ...status });
    },
  };
}
