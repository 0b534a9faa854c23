/**
 * `Core`: one instance of the WASM graph core, and the single choke point through which every call
 * goes (statuses become CoreError, traps become CoreTrap and a rebuilt instance). Browser-safe.
 */
import type { CoreExports } from './abi.ts';
import { ABI_MAJOR, ABI_MINOR, MAX_BLOCK_BYTES, Status, statusName } from './constants.ts';
import { AbiMismatchError, CoreError, CoreLoadError, CoreTrap, type TrapSite } from './errors.ts';
import { instantiate, instantiateSync, loadModule, type LoadOptions } from './loader.ts';
import { readAsString, writeF64, writeU32, writeU8, type U32Input } from './marshal.ts';
import { CoreGraph, type GraphInput } from './graph.ts';

const EXPLAIN: Record<number, string> = {
  [Status.E_BAD_HANDLE]: 'the graph handle is not live (freed, or from before a core reset)',
  [Status.E_BAD_ARG]: 'an argument is out of range',
  [Status.E_NODE_RANGE]: 'a node id is out of range',
  [Status.E_TOO_MANY_GRAPHS]: 'too many live graphs in this core; free() graphs you no longer need',
  [Status.E_CAPACITY]: 'the output buffer is too small (a shell bug: please report it)',
  [Status.E_NULL]: 'a required buffer pointer is 0 (a shell bug: please report it)',
};

interface Held {
  handle: number;
  epoch: number;
}

/** Temporary core allocations of one call; freed together (unless the instance was rebuilt). */
export class Scratch {
  readonly #core: Core;
  readonly #action: string;
  readonly ptrs: number[] = [];
  constructor(core: Core, action: string) {
    this.#core = core;
    this.#action = action;
  }
  /** `bytes` of uninitialized core memory. */
  alloc(bytes: number): number {
    if (!(bytes >= 0) || bytes > MAX_BLOCK_BYTES) {
      throw new CoreError(
        Status.E_BAD_ARG,
        `Cannot ${this.#action}: a buffer of ${bytes} bytes exceeds the core's 1 GiB block limit; split the graph`,
      );
    }
    const p = this.#core.call(this.#action, (x) => x.syn_alloc(bytes));
    this.ptrs.push(p);
    return p;
  }
  u32(data: U32Input): number {
    const p = this.alloc(4 * data.length);
    writeU32(this.#core.exports, p, data);
    return p;
  }
  u8(data: Uint8Array | ArrayLike<number>): number {
    const p = this.alloc(data.length);
    writeU8(this.#core.exports, p, data);
    return p;
  }
  f64(data: Float64Array | ArrayLike<number>): number {
    const p = this.alloc(8 * data.length);
    writeF64(this.#core.exports, p, data);
    return p;
  }
}

export class Core {
  readonly #module: WebAssembly.Module;
  #exports: CoreExports;
  #epoch = 0;
  #rebuilding: Promise<void> | null = null;
  readonly #registry: Pick<FinalizationRegistry<Held>, 'register' | 'unregister'>;
  /** The module's ABI version. */
  readonly abi: { major: number; minor: number };

  private constructor(module: WebAssembly.Module, instance: WebAssembly.Instance) {
    this.#module = module;
    this.#exports = instance.exports as unknown as CoreExports;
    this.abi = Core.#checkAbi(this.#exports);
    // Hosts without FinalizationRegistry only lose the safety net: free() still works.
    this.#registry = typeof FinalizationRegistry === 'function'
      ? new FinalizationRegistry<Held>((held) => this.#release(held))
      : { register: () => {}, unregister: () => false };
  }

  /**
   * Load the core. Node: reads wasm/synaptic.wasm next to the package. Browser and other hosts:
   * pass `{ url }`, `{ bytes }` or a compiled `{ module }`.
   */
  static async load(opts: LoadOptions = {}): Promise<Core> {
    const module = await loadModule(opts);
    let instance: WebAssembly.Instance;
    try {
      instance = await instantiate(module);
    } catch (err) {
      throw new CoreLoadError(`instantiating failed (${(err as Error).message}); the module must have no imports`, err);
    }
    return new Core(module, instance);
  }

  static #checkAbi(x: CoreExports): { major: number; minor: number } {
    if (typeof x.syn_abi_version !== 'function') {
      throw new AbiMismatchError({ major: ABI_MAJOR, minor: ABI_MINOR }, { major: 0, minor: 0 });
    }
    const v = x.syn_abi_version();
    const actual = { major: v >>> 16, minor: v & 0xffff };
    if (actual.major !== ABI_MAJOR || actual.minor < ABI_MINOR) {
      throw new AbiMismatchError({ major: ABI_MAJOR, minor: ABI_MINOR }, actual);
    }
    return actual;
  }

  /** The current instance's raw exports (numbers-only ABI). Re-read after any trap. */
  get exports(): CoreExports {
    if (this.#rebuilding) {
      throw new CoreError(Status.E_BAD_HANDLE, 'Cannot call the core: it is being rebuilt after a trap; await core.ready()');
    }
    return this.#exports;
  }

  /** Instance generation: increases each time the instance is rebuilt after a trap. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Resolves when the core is usable (only waits after a trap in a host without sync instantiation). */
  async ready(): Promise<void> {
    if (this.#rebuilding) await this.#rebuilding;
  }

  /** Bytes of the instance's linear memory. */
  memoryBytes(): number {
    return this.#exports.memory.buffer.byteLength;
  }

  /** Build a graph from edge arrays (see GraphInput). Free it with `g.free()`. */
  graph(input: GraphInput): CoreGraph {
    return CoreGraph.build(this, input);
  }

  /**
   * The choke point: runs `fn` against the exports. A negative result throws CoreError; a trap
   * throws CoreTrap after rebuilding the instance (graphs from before are gone).
   */
  call(action: string, fn: (x: CoreExports) => number): number {
    const x = this.exports;
    let r: number;
    try {
      r = fn(x);
    } catch (err) {
      if (err instanceof WebAssembly.RuntimeError) {
        const site = this.#trapSite(x);
        this.#rebuild();
        throw new CoreTrap(action, err, site);
      }
      throw err;
    }
    if (r < 0) throw new CoreError(r, `Cannot ${action}: ${EXPLAIN[r] ?? `core status ${statusName(r)}`}`);
    return r;
  }

  /** Run `fn` with scratch allocations freed afterwards (skipped if the instance was rebuilt). */
  scratch<T>(action: string, fn: (s: Scratch) => T): T {
    const epoch = this.#epoch;
    const s = new Scratch(this, action);
    try {
      return fn(s);
    } finally {
      if (epoch === this.#epoch && !this.#rebuilding) for (const p of s.ptrs) this.#exports.syn_free(p);
    }
  }

  /** @internal Track a graph for the FinalizationRegistry net. */
  track(graph: object, handle: number): void {
    this.#registry.register(graph, { handle, epoch: this.#epoch }, graph);
  }

  /** @internal */
  untrack(graph: object): void {
    this.#registry.unregister(graph);
  }

  #release(held: Held): void {
    if (held.epoch !== this.#epoch || this.#rebuilding) return;
    try {
      this.#exports.syn_graph_free(held.handle);
    } catch {
      // a finalizer must not throw; the instance is rebuilt on the next failing call anyway
    }
  }

  #trapSite(x: CoreExports): TrapSite | null {
    try {
      const p = x.syn_trap_info();
      const [line, column, msg, file] = new Uint32Array(x.memory.buffer, p, 4);
      return { line: line!, column: column!, message: readAsString(x, msg!), file: readAsString(x, file!) };
    } catch {
      return null;
    }
  }

  #rebuild(): void {
    this.#epoch++;
    const inst = instantiateSync(this.#module);
    if (inst) {
      this.#exports = inst.exports as unknown as CoreExports;
      return;
    }
    this.#rebuilding = instantiate(this.#module).then((i) => {
      this.#exports = i.exports as unknown as CoreExports;
      this.#rebuilding = null;
    });
  }
}
