import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { CLI_ARGS, MODERN_META } from '../mcp/helpers.ts';

export { sandbox, cli, type Sandbox } from '../vault/helpers.ts';

/** `synaptic serve` arguments for a project with no graph yet (the mesh and memory tools work meanwhile). */
export function meshServeArgs(project: string): string[] {
  return [...CLI_ARGS, 'serve', '--graph', join(project, 'synaptic-out', 'graph.json'), '--no-freshen'];
}

type Message = Record<string, unknown>;

/**
 * One agent session: a real `synaptic serve` stdio child spoken to in the modern era (a `_meta`
 * envelope on every request), with `tool()` resolving to the call's structured result or throwing
 * its error text.
 */
export class MeshChild {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  readonly exited: Promise<number | null>;
  private next = 1;
  private buffer = '';
  private readonly waiting = new Map<number, (m: Message) => void>();
  readonly notifications: Message[] = [];

  constructor(project: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, meshServeArgs(project), { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (d: string) => (this.stderr += d));
    this.child.stdout.on('data', (d: string) => {
      this.buffer += d;
      for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
        const msg = JSON.parse(this.buffer.slice(0, nl)) as Message;
        this.buffer = this.buffer.slice(nl + 1);
        const w = this.waiting.get(msg.id as number);
        if (w) {
          this.waiting.delete(msg.id as number);
          w(msg);
        } else if (msg.method) this.notifications.push(msg);
      }
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.child.stdin.on('error', () => {}); // a killed child's pipe
  }

  /** One modern request; rejects when the child dies first. */
  request(method: string, params: Message = {}, timeoutMs = 20_000): Promise<Message> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no response to ${method} ${JSON.stringify(params).slice(0, 200)}; stderr: ${this.stderr.slice(-500)}`)), timeoutMs);
      const dead = (): void => {
        clearTimeout(timer);
        reject(new Error(`server exited (code ${this.child.exitCode}, signal ${this.child.signalCode}); stderr: ${this.stderr.slice(-400)}`));
      };
      void this.exited.then(dead);
      this.waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }) + '\n');
    });
  }

  /** The id the next request will get (to cancel it). */
  get nextId(): number {
    return this.next;
  }

  notify(method: string, params: Message): void {
    this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n');
  }

  /** A tools/call: the structured result, or an Error with the tool's error text. */
  async tool(name: string, args: Message = {}, timeoutMs?: number): Promise<Message> {
    const res = await this.request('tools/call', { name, arguments: args }, timeoutMs);
    if (res.error) throw new Error(`${name}: protocol error ${JSON.stringify(res.error)}`);
    const result = res.result as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Message };
    if (result.isError) throw new Error(result.content.map((c) => c.text).join('\n'));
    return result.structuredContent ?? {};
  }

  async toolNames(): Promise<string[]> {
    const res = await this.request('tools/list');
    return ((res.result as { tools: Array<{ name: string }> }).tools ?? []).map((t) => t.name);
  }

  async instructions(): Promise<string> {
    const res = await this.request('server/discover');
    return String((res.result as { instructions?: string }).instructions ?? '');
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const t = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(t);
  }

  kill(): Promise<number | null> {
    this.child.kill('SIGKILL');
    return this.exited;
  }
}

export async function until(pred: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The p-th percentile (0-100) of `xs`. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
