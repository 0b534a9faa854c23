import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serveArgs } from './helpers.ts';

/** A modern (2026-07-28) SDK client over a real `synaptic serve` stdio child; `stderr()` is what the server logged. */
export async function connectSdk(
  graph: string,
  env: Record<string, string>,
  options: { serve?: string[]; clientInfo?: { name: string; version: string } } = {},
): Promise<{ client: Client; stderr(): string; close(): Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(graph, ...(options.serve ?? [])), env, stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const client = new Client(options.clientInfo ?? { name: 'sdk-stdio-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  return { client, stderr: () => log, close: () => client.close() };
}

type Message = Record<string, unknown>;

/**
 * The SDK's stdio transport alone, for requests the SDK client would never send (a malformed
 * envelope, an unknown protocol version): `request` writes one JSON-RPC request and resolves with the
 * response of the same id.
 */
export async function rawSdkTransport(graph: string, env: Record<string, string>): Promise<{ request(msg: Message): Promise<Message>; close(): Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(graph, '--no-freshen'), env, stderr: 'pipe' });
  const waiting = new Map<unknown, (msg: Message) => void>();
  transport.onmessage = (msg) => {
    const m = msg as Message;
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  };
  await transport.start();
  return {
    request: (msg) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no response to ${JSON.stringify(msg)}`)), 15_000);
        waiting.set(msg.id, (m) => {
          clearTimeout(timer);
          resolve(m);
        });
        void transport.send(msg as Parameters<typeof transport.send>[0]).catch(reject);
      }),
    close: () => transport.close(),
  };
}
