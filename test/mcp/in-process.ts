import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as LegacyInMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpCore, Session } from '../../src/mcp/server.ts';
import { createSynapticServer, type SynapticServer } from '../../src/mcp/synaptic-server.ts';
import type { ServeProfile } from '../../src/mcp/profiles.ts';
import { createMemoryTools } from '../../src/mcp/tools/memory/index.ts';
import { createVaultTools } from '../../src/mcp/tools/vault/index.ts';
import { setLearn } from '../../src/skills/settings.ts';
import { smallGraph } from './fixtures/small-graph.ts';

/** What a test needs of either SDK client. */
export interface InProcessClient {
  listTools(): Promise<{ tools: Array<Record<string, unknown> & { name: string; description?: string; inputSchema: Record<string, unknown> }> }>;
  callTool(req: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  getInstructions(): string | undefined;
  close(): Promise<void>;
}

/** A transport end that feeds every message to the core, as stdio does, and sends back its answer. */
function serveEnd(core: McpCore, end: { onmessage?: (m: never) => void; send(m: never): Promise<void>; start(): Promise<void> }): Promise<void> {
  const session: Session = { notify: (msg) => void end.send(msg as never) };
  const detach = core.attach(session);
  end.onmessage = (message: never) => {
    void core.handle(message, session).then((reply) => (reply ? end.send(reply as never) : undefined));
  };
  (end as { onclose?: () => void }).onclose = detach;
  return end.start();
}

/**
 * An SDK client connected to `core` in this process (no child, no socket): `modern` pins 2026-07-28
 * (server/discover, per-request envelopes); `legacy` is the v1 SDK client (initialize, 2025-11-25).
 */
export async function connectInProcess(core: McpCore, era: 'modern' | 'legacy'): Promise<InProcessClient> {
  if (era === 'modern') {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await serveEnd(core, serverEnd as never);
    const client = new Client({ name: 'in-process-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(clientEnd);
    return client as unknown as InProcessClient;
  }
  const [clientEnd, serverEnd] = LegacyInMemoryTransport.createLinkedPair();
  await serveEnd(core, serverEnd as never);
  const client = new LegacyClient({ name: 'in-process-legacy', version: '1.0.0' });
  await client.connect(clientEnd);
  return client as unknown as InProcessClient;
}

/**
 * The whole server `synaptic serve` composes (graph tools, memory, vault; with `learn`, the owner's
 * self-improvement switch, teach and revise too) over the small fixture graph, in this process.
 */
export async function servedSurface(options: { profile?: ServeProfile; learn?: boolean } = {}): Promise<{ server: SynapticServer; dir: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-surface-'));
  const env = { ...process.env, SYNAPTIC_DATA_DIR: join(dir, 'data') };
  setLearn(options.learn === true, env);
  const graphPath = join(dir, 'graph.json');
  writeFileSync(graphPath, JSON.stringify(smallGraph()));
  const server = await createSynapticServer({
    graphPath,
    sourceRoot: dir,
    name: 'synaptic',
    version: '0.0.0-test',
    log: () => {},
    watch: false,
    profile: options.profile,
    providers: [createMemoryTools({ cwd: dir, env }), createVaultTools({ cwd: dir, env })],
  });
  return {
    server,
    dir,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
