import { Core } from '../core/index.ts';
import { decodeSnapshot } from '../graph/snapshot.ts';
import type { NodeId } from '../graph/model.ts';
import { GraphIndex } from '../query/graph-index.ts';
import { indexSnapshot } from '../query/snapshot-index.ts';
import { qualifiedRef } from '../query/resolve.ts';
import { sanitize } from '../query/sanitize.ts';
import { $, el, fill } from './dom.ts';
import { ExplorerGraph } from './queries.ts';
import { communityMapScene, communityOfKey, mapCapacity, thousands, communityScene, focusScene, impactScene, pathScene } from './scenes.ts';
import { searchSymbols } from './search.ts';
import { formatHash, parseHash, type Mode, type ViewState } from './state.ts';
import { communityColor, GraphView, type ViewSnapshot } from './view.ts';

/**
 * The browser explorer's entry point: load the snapshot and the core (inlined in an exported file,
 * else fetched from the serving origin), then render the view the URL hash names. Every graph
 * computation runs on the WASM core in this page; there are no server round trips.
 */

const NEIGHBOURHOOD_CAP = 150;

interface Timings {
  [what: string]: number;
}

declare global {
  interface Window {
    /** Test and automation hook: what the page loaded, how long things took (ms), and what the canvas shows. */
    synaptic?: { ready: boolean; nodes: number; edges: number; timings: Timings; error?: string; view?: () => ViewSnapshot & { mode: Mode } };
  }
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text.trim());
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function fetchBytes(url: string, what: string): Promise<Uint8Array<ArrayBuffer>> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new Error(`Cannot load the ${what}: ${(err as Error).message}`);
  }
  if (!res.ok) {
    const detail = (await res.text().catch(() => '')).trim();
    throw new Error(`Cannot load the ${what}: HTTP ${res.status}${detail ? ` (${detail.slice(0, 300)})` : ''}`);
  }
  return new Uint8Array(await res.arrayBuffer());
}

async function loadInputs(): Promise<{ graph: Uint8Array<ArrayBuffer>; wasm: Uint8Array<ArrayBuffer> }> {
  const graphEl = document.getElementById('synaptic-graph');
  const wasmEl = document.getElementById('synaptic-wasm');
  if (graphEl && wasmEl) return { graph: base64Bytes(graphEl.textContent ?? ''), wasm: base64Bytes(wasmEl.textContent ?? '') };
  const [graph, wasm] = await Promise.all([fetchBytes('./graph.cbor', 'graph snapshot'), fetchBytes('./synaptic.wasm', 'graph core')]);
  return { graph, wasm };
}

/** Decode the snapshot straight into the query index's columns (no per-edge objects). */
function decode(bytes: Uint8Array): GraphIndex {
  let indexed: ReturnType<typeof indexSnapshot>;
  try {
    indexed = indexSnapshot(decodeSnapshot(bytes));
  } catch (err) {
    throw new Error(`Cannot read the graph snapshot: ${(err as Error).message}`);
  }
  return new GraphIndex(indexed.doc, { edges: indexed.edges });
}

function showError(message: string): void {
  $('loading').classList.add('hidden');
  $('app').classList.add('hidden');
  $('error-page').classList.remove('hidden');
  $('error-message').textContent = message;
  window.synaptic = { ready: false, nodes: 0, edges: 0, timings: {}, error: message };
}

function timed<T>(timings: Timings, what: string, fn: () => T): T {
  const t0 = performance.now();
  const out = fn();
  timings[what] = performance.now() - t0;
  return out;
}

class Explorer {
  private state: ViewState = { mode: 'overview' };
  readonly view: GraphView;
  private activeResult = -1;
  private resultIds: NodeId[] = [];
  private pickingPathEnd = false;

  constructor(
    private readonly eg: ExplorerGraph,
    private readonly timings: Timings,
  ) {
    this.view = new GraphView($('canvas'), {
      click: (key) => this.clickNode(key),
      badge: (key) => this.toggleExpand(key),
      overlays: () => [$('crumbs'), $('legend'), $('status')],
    });
    this.bindSearch();
    for (const b of document.querySelectorAll<HTMLButtonElement>('nav.modes button')) {
      b.addEventListener('click', () => this.switchMode(b.dataset.mode as Mode));
    }
    window.addEventListener('hashchange', () => this.render());
    document.addEventListener('keydown', (e) => {
      if (e.key === '/' && document.activeElement !== $('search')) {
        e.preventDefault();
        $('search').focus();
      }
    });
  }

  private get ix(): GraphIndex {
    return this.eg.ix;
  }

  get mode(): Mode {
    return this.state.mode;
  }

  go(state: ViewState): void {
    const hash = formatHash(state);
    if (location.hash === hash) this.render();
    else location.hash = hash;
  }

  private switchMode(mode: Mode): void {
    if (mode === 'overview') return this.go({ mode });
    const node = this.state.node;
    if (!node) {
      $('status').textContent = 'Pick a symbol first (search above)';
      $('search').focus();
      return;
    }
    this.go({ mode, node, depth: mode === 'impact' ? 2 : undefined });
  }

  /** A click on the canvas: a community opens it, a symbol is focused (or its impact shown). */
  private clickNode(key: string): void {
    const community = communityOfKey(key);
    if (this.state.mode === 'overview') return community === undefined ? undefined : this.go({ mode: 'community', community });
    if (this.state.mode === 'impact') this.go({ mode: 'impact', node: key, depth: this.state.depth });
    else this.go({ mode: 'node', node: key });
  }

  /** The +/− mark beside a caller or callee: show (or hide) its own callers or callees. */
  private toggleExpand(key: string): void {
    if (this.state.mode !== 'node') return;
    const expand = new Set(this.state.expand ?? []);
    if (expand.has(key)) expand.delete(key);
    else expand.add(key);
    this.go({ ...this.state, expand: [...expand] });
  }

  private id(key: string | undefined): NodeId | undefined {
    return key === undefined ? undefined : this.ix.g.idOf.get(key);
  }

  render(): void {
    this.state = parseHash(location.hash);
    const s = this.state;
    for (const b of document.querySelectorAll<HTMLButtonElement>('nav.modes button')) b.classList.toggle('on', b.dataset.mode === s.mode);
    const v = this.id(s.node);
    if (s.mode !== 'overview' && s.mode !== 'community' && v === undefined) {
      this.renderOverview(`Unknown node '${sanitize(s.node)}': it is not in this graph`);
      return;
    }
    const t0 = performance.now();
    $('status').textContent = '';
    if (s.mode === 'node') this.renderNode(v!);
    else if (s.mode === 'path') this.renderPath(v!, this.id(s.to), s.directed === true);
    else if (s.mode === 'impact') this.renderImpact(v!, s.depth ?? 2);
    else if (s.mode === 'community') this.renderCommunity(s.community!);
    else this.renderOverview();
    this.timings[`render:${s.mode}`] = performance.now() - t0;
  }

  // --- search ---------------------------------------------------------------------------------

  private bindSearch(): void {
    const input = $<HTMLInputElement>('search');
    const list = $('results');
    input.addEventListener('input', () => this.updateResults(input.value));
    input.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        if (!this.resultIds.length) return;
        const step = e.key === 'ArrowDown' ? 1 : -1;
        this.activeResult = (this.activeResult + step + this.resultIds.length) % this.resultIds.length;
        this.highlightResult();
      } else if (e.key === 'Enter') {
        const v = this.resultIds[Math.max(0, this.activeResult)];
        if (v !== undefined) this.pick(v);
      } else if (e.key === 'Escape') {
        list.classList.add('hidden');
        input.blur();
      }
    });
    input.addEventListener('blur', () => setTimeout(() => list.classList.add('hidden'), 150));
    input.addEventListener('focus', () => {
      if (this.resultIds.length) list.classList.remove('hidden');
    });
  }

  private updateResults(text: string): void {
    const list = $('results');
    const hits = timed(this.timings, 'search', () => searchSymbols(this.ix, text, 20));
    this.resultIds = hits;
    this.activeResult = hits.length ? 0 : -1;
    list.replaceChildren(
      ...hits.map((v, i) =>
        el('li', { role: 'option', 'data-key': this.ix.node(v).id, onmousedown: (e: Event) => (e.preventDefault(), this.pick(v)), 'data-index': i },
          el('span', {}, sanitize(this.ix.label(v))), el('span', { class: 'kind' }, String(this.ix.node(v).kind ?? '')),
          el('span', { class: 'file' }, sanitize(this.ix.node(v).source_file ?? ''))),
      ),
    );
    if (!hits.length && text.trim()) list.replaceChildren(el('li', { class: 'kind' }, `No symbol matches '${text.trim()}'`));
    list.classList.toggle('hidden', !text.trim());
    this.highlightResult();
  }

  private highlightResult(): void {
    const items = $('results').querySelectorAll('li');
    items.forEach((li, i) => li.classList.toggle('active', i === this.activeResult));
    items[this.activeResult]?.scrollIntoView({ block: 'nearest' });
  }

  /** A search pick: focuses the node, or completes the path when choosing the path's end. */
  private pick(v: NodeId): void {
    $('results').classList.add('hidden');
    $<HTMLInputElement>('search').value = '';
    const key = this.ix.node(v).id;
    if (this.state.mode === 'path' && this.pickingPathEnd && this.state.node) this.go({ mode: 'path', node: this.state.node, to: key, directed: this.state.directed });
    else if (this.state.mode === 'impact') this.go({ mode: 'impact', node: key, depth: this.state.depth });
    else this.go({ mode: 'node', node: key });
    this.pickingPathEnd = false;
  }

  // --- pieces ----------------------------------------------------------------------------------

  private nodeLink(v: NodeId, mode: Mode = 'node'): HTMLElement {
    const key = this.ix.node(v).id;
    return el('a', { class: 'node', href: formatHash({ mode, node: key }), 'data-key': key, title: sanitize(key) }, sanitize(this.ix.label(v)));
  }

  private communityName(id: number): string {
    const labels = (this.ix.g.doc.graph.community_labels ?? {}) as Record<string, string>;
    return id < 0 ? 'no community' : sanitize(labels[String(id)] ?? `community ${id}`);
  }

  private legend(entries: [string, string][], note?: string): void {
    fill($('legend'),
      ...entries.map(([color, text]) => el('div', { class: 'entry' }, el('span', { class: 'sw', style: `background:${color}` }), sanitize(text))),
      note ? el('div', { class: 'kind' }, note) : null,
    );
  }

  /** The trail above the canvas: community map › community › symbol; each step links back. */
  private crumbs(...steps: ([string, string] | string)[]): void {
    const parts: (HTMLElement | string)[] = [];
    const all: ([string, string] | string)[] = [['Community map', formatHash({ mode: 'overview' })], ...steps];
    all.forEach((step, i) => {
      if (i) parts.push(el('span', { class: 'sep' }, '›'));
      const last = i === all.length - 1;
      if (typeof step === 'string' || last) parts.push(el('span', { class: 'here' }, typeof step === 'string' ? step : step[0]));
      else parts.push(el('a', { href: step[1], class: 'crumb' }, step[0]));
    });
    fill($('crumbs'), ...parts);
  }

  private communityCrumb(v: NodeId): [string, string] | string {
    const c = this.ix.community[v]!;
    return c < 0 ? 'no community' : [this.communityName(c), formatHash({ mode: 'community', community: c })];
  }

  // --- modes -----------------------------------------------------------------------------------

  private renderOverview(warning?: string): void {
    const eg = this.eg;
    const ix = this.ix;
    const comms = eg.communities();
    const stats = el('div', {}, `${thousands(ix.n)} nodes · ${thousands(ix.m)} edges · ${comms.length} communities`);
    fill($('left'),
      warning ? el('p', { class: 'rel' }, warning) : null,
      el('h2', {}, 'Graph'), stats,
      el('h2', {}, 'Communities'),
      el('ul', { class: 'list', id: 'communities' }, ...comms.slice(0, 200).map((c) =>
        el('li', {}, el('a', { class: 'node', href: formatHash({ mode: 'community', community: c.id }), 'data-community': c.id }, sanitize(c.label)), el('span', { class: 'kind' }, ` ${c.size}`)))),
    );
    fill($('right'),
      el('h2', {}, 'God nodes'),
      el('ul', { class: 'list', id: 'god-nodes' }, ...eg.godNodes(25).map((v) => el('li', {}, this.nodeLink(v), el('span', { class: 'kind' }, ` ${ix.degree[v]} edges · ${sanitize(ix.node(v).source_file ?? '')}`)))),
    );
    const map = communityMapScene(eg, mapCapacity(this.view.canvasSize()));
    this.crumbs();
    this.legend([], `circle = a community (area: members) · line = edges between two · ${map.shown < map.total ? `the ${map.shown} largest of ${map.total} shown · ` : ''}click one to open it`);
    this.view.show(map.build);
  }

  private renderCommunity(id: number): void {
    const scene = communityScene(this.eg, id);
    const members = scene.members;
    const total = this.ix.communities.get(id)?.length ?? 0;
    const label = this.communityName(id);
    const coupled = this.eg.coupledWith(id).slice(0, 12);
    fill($('left'),
      el('p', {}, el('a', { class: 'node', href: formatHash({ mode: 'overview' }) }, '← community map')),
      el('h2', {}, label), el('div', { class: 'kind' }, `${total} members${total > members.length ? `, top ${members.length} by PageRank shown` : ''}`),
      el('ul', { class: 'list', id: 'members' }, ...members.map((v) => el('li', {}, this.nodeLink(v), el('span', { class: 'kind' }, ` ${String(this.ix.node(v).kind ?? '')}`)))),
    );
    fill($('right'),
      el('h2', {}, 'Coupled with'),
      coupled.length
        ? el('ul', { class: 'list', id: 'coupled' }, ...coupled.map((c) => el('li', {},
          el('a', { class: 'node', href: formatHash({ mode: 'community', community: c.id }) }, this.communityName(c.id)), el('span', { class: 'kind' }, ` ${c.weight} edges`))))
        : el('p', { class: 'kind' }, 'No edges to other communities.'),
    );
    this.crumbs(label);
    this.legend([...scene.colors].map(([file, color]): [string, string] => [color, file || '(no file)']), `colour = file${scene.colors.size >= 8 ? ' (grey: other files)' : ''} · size = PageRank · click a symbol to focus it`);
    this.view.show(scene.build);
  }

  private renderNode(v: NodeId): void {
    const ix = this.ix;
    const node = ix.node(v);
    const hops = this.state.depth === 2 ? 2 : 1;
    const nb = this.eg.neighbourhood(v, hops, NEIGHBOURHOOD_CAP);
    const callers = this.eg.callers(v);
    const callees = this.eg.callees(v);
    const qualified = qualifiedRef(ix, v);
    const span = node.span ? `L${node.span.start_line}-${node.span.end_line}` : String(node.source_location ?? '');
    const community = ix.community[v]!;
    const inDeg = ix.inOff[v + 1]! - ix.inOff[v]!;
    const outDeg = ix.outOff[v + 1]! - ix.outOff[v]!;
    const edgeList = (refs: typeof callers, id: string) =>
      el('ul', { class: 'list', id }, ...refs.slice(0, 200).map((r) => el('li', {}, this.nodeLink(r.other), el('span', { class: 'rel' }, ` ${sanitize(r.relation)} ${r.line}`))),
        refs.length > 200 ? el('li', { class: 'kind' }, `+${refs.length - 200} more`) : null);
    fill($('right'),
      el('h2', {}, String(node.kind ?? 'node')),
      el('div', { id: 'node-title' }, el('strong', {}, sanitize(ix.label(v)))),
      el('div', { class: 'file' }, `${sanitize(node.source_file ?? '')} ${span}`),
      node.signature?.raw ? el('pre', { class: 'sig' }, sanitize(node.signature.raw, 400)) : null,
      node.doc ? el('p', {}, sanitize(node.doc, 300)) : null,
      el('div', { class: 'kind' }, `community: ${this.communityName(community)} · in ${inDeg} · out ${outDeg} · PageRank ${this.eg.pagerank[v]!.toExponential(2)}`),
      el('div', { class: 'row' },
        el('button', { class: 'act', id: 'copy-qualified', onclick: () => void navigator.clipboard?.writeText(qualified).then(() => ($('status').textContent = `Copied ${qualified}`), () => ($('status').textContent = qualified)) }, 'Copy qualified name'),
        el('button', { class: 'act', onclick: () => this.go({ mode: 'node', node: node.id, depth: hops === 1 ? 2 : 1 }) }, hops === 1 ? 'Show 2 hops' : 'Show 1 hop'),
        el('button', { class: 'act', onclick: () => this.go({ mode: 'path', node: node.id }) }, 'Path from here'),
        el('button', { class: 'act', onclick: () => this.go({ mode: 'impact', node: node.id, depth: 2 }) }, 'Impact')),
      el('code', { id: 'qualified' }, sanitize(qualified)),
      el('h2', {}, `Callers (${callers.length})`, el('span', { class: 'kind', id: 'callers-cut' })), edgeList(callers, 'callers'),
      el('h2', {}, `Callees (${callees.length})`, el('span', { class: 'kind', id: 'callees-cut' })), edgeList(callees, 'callees'),
    );
    fill($('left'),
      el('h2', {}, `Neighbourhood (${hops} hop${hops > 1 ? 's' : ''})`),
      el('div', { class: 'kind' }, nb.capped ? `${nb.reached} nodes reached, ${nb.nodes.length} closest shown` : `${nb.nodes.length} nodes`),
      el('ul', { class: 'list', id: 'neighbours' }, ...nb.nodes.filter((u) => u !== v).slice(0, 100).map((u) => el('li', {}, this.nodeLink(u)))),
    );
    const expanded = new Set<NodeId>();
    for (const key of this.state.expand ?? []) {
      const u = this.id(key);
      if (u !== undefined) expanded.add(u);
    }
    if (hops === 2) for (const r of [...callers, ...callees]) expanded.add(r.other);
    const scene = focusScene(this.eg, v, expanded);
    this.crumbs(this.communityCrumb(v), sanitize(ix.label(v)));
    const hasCalls = callers.length + callees.length > 0;
    this.legend([], `${hasCalls ? 'left: callers · right: callees' : 'no calls: left links in, right links out'} · dashed = references/uses · +N: show theirs · click a symbol to focus it`);
    this.view.show(scene.build);
    const omitted = scene.drawn()?.omitted;
    if (omitted?.callers) $('callers-cut').textContent = ` · ${omitted.callers} not on the canvas`;
    if (omitted?.callees) $('callees-cut').textContent = ` · ${omitted.callees} not on the canvas`;
  }

  private renderPath(s: NodeId, t: NodeId | undefined, directed: boolean): void {
    const pickEnd = el('button', { class: 'act', id: 'pick-end', onclick: () => { this.pickingPathEnd = true; $('search').focus(); $('status').textContent = 'Search the path end'; } }, t === undefined ? 'Choose the end…' : 'Change the end…');
    const key = (v: NodeId | undefined) => (v === undefined ? undefined : this.ix.node(v).id);
    const toggle = el('label', { class: 'kind' },
      el('input', { type: 'checkbox', id: 'path-directed', checked: directed, onchange: () => this.go({ mode: 'path', node: key(s), to: key(t), directed: !directed }) }),
      ' follow edge direction only');
    const head = [el('h2', {}, 'Path'), el('div', {}, 'from ', this.nodeLink(s)), el('div', {}, 'to ', t === undefined ? el('span', { class: 'kind' }, '(none yet)') : this.nodeLink(t)), el('div', { class: 'row' }, pickEnd), toggle];
    this.pickingPathEnd = t === undefined;
    fill($('left'));
    this.crumbs(this.communityCrumb(s), 'path');
    if (t === undefined) {
      fill($('right'), ...head, el('p', { class: 'kind' }, 'Search a symbol above to pick the end of the path.'));
      this.legend([], 'search a symbol above to pick the end');
      this.view.show(pathScene(this.eg, { nodes: [s], hops: [] }));
      return;
    }
    const path = timed(this.timings, 'path', () => this.eg.path(s, t, { directed }));
    if (!path) {
      fill($('right'), ...head, el('p', { id: 'path-result' }, `No path between these symbols within 8 hops${directed ? ' following edge direction' : ''}.`));
      this.legend([], 'no path');
      this.view.show(pathScene(this.eg, { nodes: [s, t], hops: [] }));
      return;
    }
    const steps = el('ol', { id: 'path-result' }, ...path.nodes.map((v, i) =>
      el('li', {}, this.nodeLink(v), i < path.hops.length ? el('div', { class: 'rel' }, `${path.hops[i]!.reversed ? '←' : '→'} ${sanitize(path.hops[i]!.relation)}`) : null)));
    fill($('right'), ...head, el('div', { class: 'kind' }, `${path.hops.length} hop${path.hops.length === 1 ? '' : 's'}${path.directed ? ' following edge direction' : ' (← = connected through an edge that points the other way)'}`), steps);
    this.legend([['#f0b429', 'path edges (label = relation)']]);
    $('status').textContent = `path in ${this.timings.path!.toFixed(1)} ms`;
    this.view.show(pathScene(this.eg, path));
  }

  private renderImpact(v: NodeId, depth: number): void {
    const impact = timed(this.timings, 'impact', () => this.eg.impact(v, depth));
    const depthButtons = [1, 2, 3, 4, 5].map((d) => el('button', { class: 'act' + (d === depth ? ' on' : ''), onclick: () => this.go({ mode: 'impact', node: this.ix.node(v).id, depth: d }) }, String(d)));
    fill($('right'),
      el('h2', {}, 'Impact'), el('div', {}, 'if ', this.nodeLink(v), ' changes'),
      el('div', { class: 'row' }, 'depth', ...depthButtons),
      el('div', { id: 'impact-total' }, `${impact.total} dependent${impact.total === 1 ? '' : 's'} within ${depth} hop${depth === 1 ? '' : 's'}`),
      ...impact.byDepth.flatMap((level, i) => level.length ? [
        el('h2', {}, `${i + 1} hop${i ? 's' : ''} (${level.length})`),
        el('ul', { class: 'list impact-level', 'data-depth': i + 1 }, ...level.slice(0, 300).map((h) => el('li', {}, this.nodeLink(h.node), el('span', { class: 'rel' }, ` via ${sanitize(h.relation)}`))),
          level.length > 300 ? el('li', { class: 'kind' }, `+${level.length - 300} more`) : null),
      ] : []),
    );
    fill($('left'));
    const scene = impactScene(this.eg, v, impact.byDepth);
    this.crumbs(this.communityCrumb(v), `impact of ${sanitize(this.ix.label(v))}`);
    this.legend([[communityColor(-1), 'ring = hops from the changed symbol']], impact.total > scene.shown ? `${scene.shown} of ${impact.total} shown` : undefined);
    $('status').textContent = `impact in ${this.timings.impact!.toFixed(1)} ms`;
    this.view.show(scene.build);
  }
}

async function start(): Promise<void> {
  const timings: Timings = {};
  const t0 = performance.now();
  try {
    const inputs = await loadInputs();
    const ix = timed(timings, 'index', () => decode(inputs.graph));
    const core = await Core.load({ bytes: inputs.wasm });
    const g = core.graph({ n: ix.n, src: ix.g.src, dst: ix.g.dst, rel: ix.g.rel });
    const eg = timed(timings, 'pagerank', () => new ExplorerGraph(ix, g));
    const explorer = new Explorer(eg, timings);
    $('loading').classList.add('hidden');
    $('app').classList.remove('hidden');
    timings.ready = performance.now() - t0;
    explorer.render();
    window.synaptic = { ready: true, nodes: ix.n, edges: ix.m, timings, view: () => ({ ...explorer.view.snapshot(), mode: explorer.mode }) };
    // The search postings are built right after the first paint, not before it.
    setTimeout(() => timed(timings, 'warm', () => ix.warm()), 0);
  } catch (err) {
    showError((err as Error).message || String(err));
  }
}

void start();
