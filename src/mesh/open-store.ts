import type { MeshStore } from './store.ts';
import { SqliteMeshStore } from './sqlite-store.ts';

/**
 * The mesh store a server uses: the embedded SQLite file of the data directory. (Team mode puts the
 * mesh in PostgreSQL instead; that backend implements the same MeshStore and is chosen here.)
 */
export async function openMeshStore(options: { env?: NodeJS.ProcessEnv; dir?: string } = {}): Promise<MeshStore> {
  return SqliteMeshStore.open(options);
}
