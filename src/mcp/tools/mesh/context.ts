import { join } from 'node:path';
import { jsonWithoutInvisible } from '../../../graph/sanitize.ts';
import { dataDir } from '../../../memory/paths.ts';
import { resolveProject } from '../../../memory/project.ts';
import { Mesh, openMeshStore, WorkerManager, type MeshStore } from '../../../mesh/index.ts';
import { readSettings, type Env } from '../../../skills/index.ts';
import type { ToolResult } from '../../tool.ts';

/** What the mesh tools share: this session's Mesh (the store opens on first use) and its workers. */
export interface MeshToolContext {
  mesh(): Promise<Mesh>;
  workers(): Promise<WorkerManager>;
  /** The project a registration is for: argument, SYNAPTIC_PROJECT_DIR, then the server's working directory. */
  project(argument: string | undefined): string;
  /** Whether the owner still has the mesh on (a call after `settings mesh off` is refused). */
  requireOn(action: string): void;
}

export function createMeshContext(options: { cwd: string; env?: Env; meshOn: () => boolean }): MeshToolContext & { close(): Promise<void> } {
  const env = (options.env ?? process.env) as NodeJS.ProcessEnv;
  let opened: Promise<{ store: MeshStore; mesh: Mesh; workers: WorkerManager }> | undefined;
  const open = () =>
    (opened ??= openMeshStore({ env }).then((store) => {
      const mesh = new Mesh({ store });
      const workers = new WorkerManager(mesh, store, { enabled: () => readSettings(env).workers, configs: () => readSettings(env).workerCommands }, join(dataDir(env), 'mesh', 'workers'));
      return { store, mesh, workers };
    })).catch((err: unknown) => {
      opened = undefined; // retried on the next call, with the reason each time
      throw err;
    });
  return {
    mesh: async () => (await open()).mesh,
    workers: async () => (await open()).workers,
    project: (argument) => resolveProject(argument, env, options.cwd).path,
    requireOn(action) {
      if (!options.meshOn()) throw new Error(`Cannot ${action}: the agent mesh is off (the owner turns it on with \`synaptic settings mesh on\`)`);
    },
    async close() {
      if (!opened) return;
      const o = await opened.catch(() => undefined);
      opened = undefined;
      if (!o) return;
      await o.workers.close();
      await o.mesh.close();
      await o.store.close();
    },
  };
}

/** A mesh tool result: the JSON (text, invisible characters escaped) and its structured mirror. */
export function meshResult(shape: Record<string, unknown>, note?: string): ToolResult {
  const content = [{ type: 'text' as const, text: jsonWithoutInvisible(JSON.stringify(shape)) }];
  if (note) content.push({ type: 'text', text: note });
  return { content, structuredContent: shape };
}
