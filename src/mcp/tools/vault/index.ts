import type { Env } from '../../../skills/index.ts';
import { SettingSwitch } from '../../setting-switch.ts';
import type { ToolDefinition, ToolProvider } from '../../tool.ts';
import { reviseTool } from './revise.ts';
import { teachTool } from './teach.ts';
import { vaultStatusTool } from './vaultstatus.ts';

export { vaultStatusTool, statusFolder } from './vaultstatus.ts';
export { teachTool } from './teach.ts';
export { reviseTool } from './revise.ts';

/**
 * The vault and skill-library tools: `vaultstatus` always, `teach` and `revise` only while
 * `synaptic settings learn on` is set. The setting is re-read on every `tools()` call and watched,
 * and the `onToolsChanged` listeners run when it flips, so the server can send
 * `notifications/tools/list_changed`.
 */
export function createVaultTools(options: { cwd: string; env?: Env }): ToolProvider {
  const env = options.env ?? process.env;
  const base = { cwd: options.cwd, env };
  const status = vaultStatusTool(base) as unknown as ToolDefinition;
  const learnTools = [teachTool(base), reviseTool(base)] as unknown as ToolDefinition[];
  const learn = new SettingSwitch(env, (s) => s.learn);
  return {
    tools: () => (learn.on() ? [status, ...learnTools] : [status]),
    onToolsChanged: (listener) => learn.onFlip(listener),
    close: () => learn.close(),
  };
}
