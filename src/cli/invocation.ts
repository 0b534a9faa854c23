import { PACKAGE_NAME } from '../graph/package.node.ts';

/**
 * How the user ran synaptic, for the commands a hint tells them to run next: `npx -y synaptic-mcp`
 * when npx started this process (npm sets npm_command=exec for what it runs; the user may have no
 * `synaptic` on PATH), else `synaptic`.
 */
export function synapticCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.npm_command === 'exec' ? `npx -y ${PACKAGE_NAME}` : 'synaptic';
}
