import type { Env } from '../../../skills/index.ts';
import { SettingSwitch } from '../../setting-switch.ts';
import type { ToolDefinition, ToolProvider } from '../../tool.ts';
import { meshAckTool } from './ack.ts';
import { meshClaimTool } from './claim.ts';
import { createMeshContext } from './context.ts';
import { meshFinishTool } from './finish.ts';
import { meshInboxTool } from './inbox.ts';
import { meshOfferTool } from './offer.ts';
import { meshPeersTool } from './peers.ts';
import { meshPublishTool } from './publish.ts';
import { meshRegisterTool } from './register.ts';
import { meshSendTool } from './send.ts';
import { meshStatusTool } from './status.ts';
import { meshSubscribeTool } from './subscribe.ts';
import { meshUnregisterTool } from './unregister.ts';
import { meshWaitTool } from './wait.ts';
import { meshWatchTool } from './watch.ts';
import { meshWorkerStartTool } from './worker-start.ts';
import { meshWorkerStopTool } from './worker-stop.ts';

export { MESH_GUIDANCE, MESH_TOOLS } from './guidance.ts';

/**
 * The agent-mesh tools, served only while `synaptic settings mesh on` (re-read on every `tools()` and
 * watched, so the server sends `notifications/tools/list_changed` when it flips). The mesh store opens
 * on the first call; closing the provider (the session's end) stops its workers and releases its name.
 */
export function createMeshTools(options: { cwd: string; env?: Env }): ToolProvider {
  const env = options.env ?? process.env;
  const on = new SettingSwitch(env, (s) => s.mesh);
  const ctx = createMeshContext({ cwd: options.cwd, env, meshOn: () => on.on() });
  const tools = [
    meshRegisterTool(ctx), meshUnregisterTool(ctx), meshPeersTool(ctx), meshSendTool(ctx), meshPublishTool(ctx), meshSubscribeTool(ctx),
    meshInboxTool(ctx), meshAckTool(ctx), meshWaitTool(ctx), meshStatusTool(ctx), meshWatchTool(ctx), meshOfferTool(ctx),
    meshClaimTool(ctx), meshFinishTool(ctx), meshWorkerStartTool(ctx), meshWorkerStopTool(ctx),
  ] as unknown as ToolDefinition[];
  return {
    tools: () => (on.on() ? tools : []),
    onToolsChanged: (listener) => on.onFlip(listener),
    async close() {
      on.close();
      await ctx.close();
    },
  };
}
