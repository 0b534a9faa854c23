/**
 * Finding, compiling and instantiating synaptic.wasm. Browser-safe: the Node branch imports
 * `node:fs/promises` dynamically, only when running under Node (or Bun/Deno's Node layer) with no
 * bytes/url given.
 */
import { CoreLoadError } from './errors.ts';

export interface LoadOptions {
  /** The .wasm bytes (browser, embedding, tests). */
  bytes?: ArrayBuffer | ArrayBufferView;
  /** Where to fetch the .wasm from (browser). */
  url?: string | URL;
  /** An already compiled module (shared between Core instances). */
  module?: WebAssembly.Module;
  /** Node only: load wasm/synaptic.debug.wasm (asserts on) instead of the release build. */
  debug?: boolean;
}

// The file is at <root>/wasm/; this module is at <root>/src/core/ (tsx) or <root>/dist/src/core/ (tsc).
const CANDIDATES = ['../../wasm/', '../../../wasm/'];

const defaultModules = new Map<string, Promise<WebAssembly.Module>>();

interface NodeFs {
  readFile(path: URL): Promise<Uint8Array<ArrayBuffer>>;
}

function isNodeLike(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p?.versions?.node === 'string';
}

async function readDefault(file: string): Promise<Uint8Array<ArrayBuffer>> {
  // A variable specifier keeps bundlers from resolving node:fs for the browser build.
  const spec = 'node:fs/promises';
  const fs = (await import(/* @vite-ignore */ spec)) as NodeFs;
  const tried: string[] = [];
  for (const dir of CANDIDATES) {
    const url = new URL(dir + file, import.meta.url);
    try {
      return await fs.readFile(url);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT') throw new CoreLoadError(`reading ${url.href} failed`, err);
      tried.push(url.pathname);
    }
  }
  throw new CoreLoadError(`${file} not found (looked at ${tried.join(', ')}); run \`npm run build:wasm\``);
}

async function compile(bytes: ArrayBuffer | ArrayBufferView, what: string): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compile(bytes as BufferSource);
  } catch (err) {
    throw new CoreLoadError(`${what} is not a valid WebAssembly module (${(err as Error).message})`, err);
  }
}

/** Resolve load options to a compiled module. */
export async function loadModule(opts: LoadOptions = {}): Promise<WebAssembly.Module> {
  if (opts.module) return opts.module;
  if (opts.bytes) return compile(opts.bytes, 'the `bytes` option');
  if (opts.url !== undefined) {
    let res: Response;
    try {
      res = await fetch(opts.url);
    } catch (err) {
      throw new CoreLoadError(`fetching ${String(opts.url)} failed (${(err as Error).message})`, err);
    }
    if (!res.ok) throw new CoreLoadError(`fetching ${String(opts.url)} returned HTTP ${res.status}`);
    return compile(await res.arrayBuffer(), String(opts.url));
  }
  if (!isNodeLike()) {
    throw new CoreLoadError('no .wasm given outside Node; call Core.load({ url }) or Core.load({ bytes })');
  }
  const file = opts.debug ? 'synaptic.debug.wasm' : 'synaptic.wasm';
  let p = defaultModules.get(file);
  if (!p) {
    p = readDefault(file).then((b) => compile(b, file));
    defaultModules.set(file, p);
    p.catch(() => defaultModules.delete(file));
  }
  return p;
}

/** Instantiate with no imports (the module has none). */
export async function instantiate(module: WebAssembly.Module): Promise<WebAssembly.Instance> {
  return WebAssembly.instantiate(module, {});
}

/** Synchronous instantiation, for rebuilding after a trap; null where the host forbids it. */
export function instantiateSync(module: WebAssembly.Module): WebAssembly.Instance | null {
  try {
    return new WebAssembly.Instance(module, {});
  } catch {
    return null;
  }
}
