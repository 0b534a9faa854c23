import { watch, type FSWatcher } from 'node:fs';
import { readSettings, type Env } from '../../../skills/index.ts';
import { ensureDataDir } from '../../../vault/index.ts';
import type { ToolDefinition, ToolProvider } from '../../tool.ts';
import { reviseTool } from './revise.ts';
import { teachTool } from './teach.ts';
import { vaultStatusTool } from './vaultstatus.ts';

export { vaultStatusTool, statusFolder } from './vaultstatus.ts';
export { teachTool } from './teach.ts';
export { reviseTool } from './revise.ts';

const POLL_MS = 3000;

/**
 * The vault and skill-library tools: `vaultstatus` always, `teach` and `revise` only while
 * `synaptic settings learn on` is set. The setting is re-read on every `tools()` call and watched
 * (fs.watch on the data folder plus a slow poll), and the `onToolsChanged` listeners run when it flips,
 * so the server can send `notifications/tools/list_changed`.
 */
export function createVaultTools(options: { cwd: string; env?: Env }): ToolProvider {
  const env = options.env ?? process.env;
  const base = { cwd: options.cwd, env };
  const status = vaultStatusTool(base) as unknown as ToolDefinition;
  const learnTools = [teachTool(base), reviseTool(base)] as unknown as ToolDefinition[];
  const listeners: Array<() => void> = [];
  const learnNow = (): boolean => {
    try {
      return readSettings(env).learn;
    } catch {
      return false; // an unreadable settings file keeps the writing tools off
    }
  };
  let learn = learnNow();
  let watcher: FSWatcher | undefined;
  let poll: NodeJS.Timeout | undefined;

  const check = (): void => {
    const next = learnNow();
    if (next === learn) return;
    learn = next;
    for (const l of listeners) queueMicrotask(l);
  };

  const start = (): void => {
    if (poll) return;
    poll = setInterval(check, POLL_MS);
    poll.unref();
    try {
      watcher = watch(ensureDataDir(env), { persistent: false }, (_event, file) => {
        if (file === null || file === 'settings.json') check();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined; // the poll keeps working
      });
    } catch {
      watcher = undefined;
    }
  };

  return {
    tools() {
      check();
      return learn ? [status, ...learnTools] : [status];
    },
    onToolsChanged(listener) {
      listeners.push(listener);
      start();
    },
    close() {
      watcher?.close();
      watcher = undefined;
      if (poll) clearInterval(poll);
      poll = undefined;
    },
  };
}
