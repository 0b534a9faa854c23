import { databaseUrl, teamName } from '../memory/database.ts';
import type { MeshStore } from './store.ts';
import { SqliteMeshStore } from './sqlite-store.ts';

/**
 * The mesh store a server uses: in team mode (SYNAPTIC_DATABASE_URL or `synaptic settings database`)
 * the team's PostgreSQL database, shared by every machine (pg is loaded only then); else the embedded
 * SQLite file of the data directory.
 */
export async function openMeshStore(options: { env?: NodeJS.ProcessEnv; dir?: string } = {}): Promise<MeshStore> {
  const env = options.env ?? process.env;
  const url = databaseUrl(env);
  if (url === null) return SqliteMeshStore.open(options);
  const { PgMeshStore } = await import('./pg-store.ts');
  return PgMeshStore.open({ url, team: teamName(env) });
}
