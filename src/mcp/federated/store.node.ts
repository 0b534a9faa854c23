import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GLOBAL_MANIFEST, type GlobalManifest, type ManifestMember } from '../../extract/workspace/state.node.ts';
import type { QueryEngine } from '../../query/engine.ts';
import type { GraphIndex } from '../../query/graph-index.ts';
import type { TraversalBackend } from '../../query/traversal.ts';
import { Shard } from '../../graph/store/read.node.ts';
import { COMMUNITY_STRIDE, loadMember, type MemberLoad } from './member-load.node.ts';

/** One member of the served store, as the manifest names it. */
export interface StoreMember {
  tag: string;
  /** Position in the manifest (its communities are shifted by index * COMMUNITY_STRIDE). */
  index: number;
  sourceRoot: string;
  graphPath: string;
  /** The member's graph.shard (label lookups across members read it without loading the member). */
  shard?: string;
  status: 'ok' | 'failed';
  error?: string;
  nodes: number;
  links: number;
  /** What a resident copy is keyed on: a change drops it (hot reload). */
  key: string;
}

export interface FederatedStoreOptions {
  /** The workspace's output folder (with global-manifest.json) or the manifest itself. */
  store: string;
  traversal?: (ix: GraphIndex) => TraversalBackend;
  log?: (line: string) => void;
  /** Resident members at most (SYNAPTIC_SHARD_LRU, default 8). */
  lru?: number;
  /** Replaces loadMember (tests). */
  load?: typeof loadMember;
}

interface Resident {
  key: string;
  engine: QueryEngine;
}

/** The folder holding global-manifest.json for a `--store`/SYNAPTIC_STORE value. */
export function storeDir(store: string): string {
  return basename(store) === GLOBAL_MANIFEST ? dirname(store) : store;
}

/**
 * A federated store served shard-aware: members load on demand behind an LRU of at most `lru`
 * resident engines; concurrent misses on one member share one load; a failed load rejects every
 * waiter with the member named and is forgotten, so the next call retries. The manifest's stamp is
 * checked on every data request (no timer): a new generation re-reads it and drops the members
 * whose shard generation or counts changed; a resident member whose graph file changed is dropped too.
 */
export class FederatedStore {
  readonly dir: string;
  readonly manifestPath: string;
  private readonly lru: number;
  private manifest: GlobalManifest | undefined;
  private manifestStamp = '';
  private list: StoreMember[] = [];
  private readonly resident = new Map<string, Resident>();
  private readonly loading = new Map<string, { key: string; promise: Promise<QueryEngine> }>();
  /** Per-member answers that depend only on the member's graph (stats, hub lists), keyed like residents. */
  private readonly memo = new Map<string, { key: string; values: Map<string, unknown> }>();
  /** Open shards by tag, keyed like residents (a label index lookup costs no member load). */
  private readonly shards = new Map<string, { key: string; shard: Shard | null }>();
  /** label -> tags whose shard has it, for the current generation of every member. */
  private readonly labelTags = new Map<string, string[]>();
  /** Loads started (tests count them). */
  loads = 0;

  constructor(private readonly options: FederatedStoreOptions) {
    this.dir = storeDir(options.store);
    this.manifestPath = join(this.dir, GLOBAL_MANIFEST);
    this.lru = Math.max(1, options.lru ?? 8);
    this.refresh();
    if (!this.manifest) throw new Error(`Cannot serve the store ${this.dir}: no readable ${GLOBAL_MANIFEST} there (run 'synaptic workspace build' first)`);
  }

  /** The members, after the hot-reload check. */
  members(): StoreMember[] {
    this.refresh();
    return this.list;
  }

  get generation(): number {
    return this.manifest?.generation ?? 0;
  }

  member(tag: string): StoreMember | undefined {
    return this.members().find((m) => m.tag === tag);
  }

  /** Members resident now, least recently used first. */
  residentTags(): string[] {
    return [...this.resident.keys()];
  }

  /** The member's engine: resident, or loaded (one load however many calls wait for it). */
  engine(tag: string): Promise<QueryEngine> {
    const m = this.member(tag);
    if (!m) return Promise.reject(new Error(`Cannot answer: no member '${tag}' in the store ${this.dir} (members: ${this.list.map((x) => x.tag).join(', ')})`));
    if (m.status === 'failed') return Promise.reject(new Error(`Cannot answer from member '${tag}': its last extraction failed (${m.error ?? 'unknown error'}); fix it and run 'synaptic workspace update'`));
    const key = this.memberKey(m);
    const hit = this.resident.get(tag);
    if (hit && hit.key === key) {
      this.resident.delete(tag);
      this.resident.set(tag, hit); // most recently used last
      return Promise.resolve(hit.engine);
    }
    if (hit) this.evict(tag);
    const pending = this.loading.get(tag);
    if (pending && pending.key === key) return pending.promise;
    this.loads++;
    const started = performance.now();
    const promise = (this.options.load ?? loadMember)(m.graphPath, tag, m.index * COMMUNITY_STRIDE, this.options.traversal).then(
      (load: MemberLoad) => {
        if (this.loading.get(tag)?.promise === promise) this.loading.delete(tag);
        this.federateLabels(tag, load.engine);
        this.admit(tag, key, load.engine);
        this.options.log?.(`[synaptic] store: loaded member '${tag}' (${load.engine.ix.n} nodes) from ${load.from} in ${Math.round(performance.now() - started)} ms (read ${Math.round(load.readMs)}, index ${Math.round(load.indexMs)}); resident: ${this.residentTags().join(', ')}`);
        return load.engine;
      },
      (err: unknown) => {
        // Forget the failure: every waiter got it; the next call loads again.
        if (this.loading.get(tag)?.promise === promise) this.loading.delete(tag);
        const message = `Cannot load member '${tag}' of the store ${this.dir}: ${err instanceof Error ? err.message : String(err)}`;
        this.options.log?.(`[synaptic] store: ${message}`);
        throw new Error(message);
      },
    );
    this.loading.set(tag, { key, promise });
    return promise;
  }

  /** A value computed from one member's engine, kept (without the engine) until the member changes. */
  async memoized<T>(tag: string, name: string, compute: (engine: QueryEngine) => T): Promise<T> {
    const m = this.member(tag);
    const key = m ? this.memberKey(m) : '';
    let entry = this.memo.get(tag);
    if (!entry || entry.key !== key) this.memo.set(tag, (entry = { key, values: new Map() }));
    if (entry.values.has(name)) return entry.values.get(name) as T;
    const value = compute(await this.engine(tag));
    if (this.memo.get(tag) === entry) entry.values.set(name, value);
    return value;
  }

  /**
   * Does a member other than `tag` have a node labelled `label`? (One indexed count per other
   * member's shard, remembered until a member changes.) A member without a shard counts as not.
   */
  labelElsewhere(tag: string, label: string): boolean {
    let tags = this.labelTags.get(label);
    if (!tags) {
      tags = [];
      for (const m of this.list) {
        if (m.status !== 'ok') continue;
        const shard = this.shard(m);
        if (shard && shard.labelCount(label) > 0) tags.push(m.tag);
      }
      this.labelTags.set(label, tags);
    }
    return tags.some((t) => t !== tag);
  }

  close(): void {
    for (const tag of [...this.resident.keys()]) this.evict(tag);
    for (const { shard } of this.shards.values()) shard?.close();
    this.shards.clear();
  }

  /**
   * A label is a duplicate in the federation when it is one in the member or another member has it
   * too (what one union graph's isDuplicateLabel says): the member's engine asks the store.
   */
  private federateLabels(tag: string, engine: QueryEngine): void {
    const local = engine.isDuplicateLabel.bind(engine);
    engine.isDuplicateLabel = (v) => local(v) || (typeof engine.ix.node(v).label === 'string' && this.labelElsewhere(tag, engine.ix.label(v)));
  }

  private shard(m: StoreMember): Shard | null {
    const key = this.memberKey(m);
    const open = this.shards.get(m.tag);
    if (open && open.key === key) return open.shard;
    open?.shard?.close();
    let shard: Shard | null = null;
    try {
      if (m.shard) shard = Shard.open(m.shard, { tag: m.tag });
    } catch (err) {
      this.options.log?.(`[synaptic] warning: store member '${m.tag}': its shard does not open (${err instanceof Error ? err.message : String(err)}); its labels are not counted across members`);
    }
    this.shards.set(m.tag, { key, shard });
    return shard;
  }

  private admit(tag: string, key: string, engine: QueryEngine): void {
    this.resident.delete(tag);
    this.resident.set(tag, { key, engine });
    while (this.resident.size > this.lru) this.evict(this.resident.keys().next().value!);
  }

  private evict(tag: string): void {
    const r = this.resident.get(tag);
    if (!r) return;
    this.resident.delete(tag);
    // A call that already holds the engine finishes on it; its WASM graph goes a little later.
    setTimeout(() => r.engine.traversal.dispose?.(), 5_000).unref?.();
  }

  /** The member's manifest key plus its graph files' stamps (a member re-extracted on its own). */
  private memberKey(m: StoreMember): string {
    return `${m.key}|${stamp(m.graphPath)}|${stamp(m.graphPath.replace(/\.json$/, '.cbor'))}`;
  }

  /** Re-read the manifest when its stamp changed; members whose key changed are dropped. */
  private refresh(): void {
    const now = stamp(this.manifestPath);
    if (now === this.manifestStamp && this.manifest) return;
    let manifest: GlobalManifest;
    try {
      manifest = JSON.parse(readFileSync(this.manifestPath, 'utf8')) as GlobalManifest;
      if (!Array.isArray(manifest.members)) throw new Error('no members list');
    } catch (err) {
      if (!this.manifest) return; // the constructor names the problem
      this.options.log?.(`[synaptic] warning: cannot re-read ${this.manifestPath} (${err instanceof Error ? err.message : String(err)}); still serving generation ${this.manifest.generation}`);
      return;
    }
    const before = this.manifest?.generation;
    this.manifest = manifest;
    this.manifestStamp = now;
    this.list = manifest.members.map((m: ManifestMember, index) => ({
      tag: m.tag,
      index,
      sourceRoot: m.source_root,
      graphPath: join(m.out_dir, 'graph.json'),
      ...(m.shard ? { shard: m.shard } : {}),
      status: m.status,
      ...(m.error ? { error: m.error } : {}),
      nodes: m.nodes ?? 0,
      links: m.links ?? 0,
      key: `${index}:${m.status}:${m.shard_generation ?? ''}:${m.nodes ?? ''}:${m.links ?? ''}:${m.out_dir}`,
    }));
    if (before !== undefined && before !== manifest.generation) {
      this.options.log?.(`[synaptic] store: manifest generation ${before} -> ${manifest.generation}; changed members reload on their next use`);
    }
    for (const tag of [...this.resident.keys()]) {
      const m = this.list.find((x) => x.tag === tag);
      if (!m || this.resident.get(tag)!.key !== this.memberKey(m)) this.evict(tag);
    }
    this.labelTags.clear();
  }
}

function stamp(path: string): string {
  try {
    const st = statSync(path);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return '';
  }
}
