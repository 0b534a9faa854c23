import type { NodeId } from '../../graph/model.ts';
import type { QueryEngine } from '../engine.ts';
import { lineOf } from '../engine.ts';
import { isStructural } from '../relations.ts';
import { bareName } from '../tokens.ts';
import { isIdentifier, occurrences, type Occurrence } from './occurrences.ts';
import { ownerType } from './owner.ts';

/** One place a rename touches: `col` is 1-based, 0 when the line holds no token of the old name. */
export interface RenameSite {
  file: string;
  line: number;
  col: number;
  old: string;
  to: string;
  reason: string;
  /** 0..1: how sure the plan is that this token is the symbol (>= EDIT_THRESHOLD: an edit, else review). */
  confidence: number;
}

export interface RenamePlan {
  target: NodeId;
  old: string;
  to: string;
  confidence: 'high' | 'medium' | 'low';
  edits: RenameSite[];
  review: RenameSite[];
  /** Files with at least one edit. */
  files: number;
  /** Distinct nodes with an edge into the symbol (or its constructors). */
  affected: number;
  /** Files read for the plan (the symbol's file and those that use or import it). */
  scanned: number;
  /** Scope files that could not be read (their sites come from the graph's lines only). */
  unreadable: string[];
}

/** Reads a repo-relative source file; throws or returns undefined when it cannot. */
export type SourceReader = (file: string) => string | undefined;

/** A rename the plan refuses: bad `to`, a symbol with no name, the definition's file unreadable. */
export class RenameInputError extends Error {
  override name = 'RenameInputError';
}

export const EDIT_THRESHOLD = 0.5;

const CONF = { definition: 1, extracted: 0.95, inferred: 0.75, ambiguous: 0.35, sameFile: 0.8, unbound: 0.4, override: 0.45, noToken: 0.3, string: 0.25, comment: 0.2, conflict: 0.1 };

const REASON: Record<string, string> = {
  calls: 'call', references: 'reference', imports: 'import', imports_from: 'import', re_exports: 're-export',
  inherits: 'inheritance', extends: 'extends', implements: 'implements', instantiates: 'instantiation', uses: 'use',
  tests: 'call from a test', overrides: 'override', mixes_in: 'mixin', embeds: 'embedding', dynamic_ref: 'by-name reference',
};

const TYPE_LINKS = new Set(['inherits', 'extends', 'implements', 'mixes_in', 'embeds']);

/**
 * A confidence-scored rename plan for node v: the definition, the token of every graph edge's site
 * line (calls, references, imports, re-exports), every other whole-word use in the files that define,
 * use or import it (edits when the file refers to the symbol, else review), mentions in comments and
 * strings, overriding/implementing members of related types, by-name reflection sites, and symbols the
 * new name would collide with. Never edits; reads the files through `read`.
 */
export function planRename(engine: QueryEngine, v: NodeId, to: string, read: SourceReader): RenamePlan {
  const ix = engine.ix;
  const node = ix.node(v);
  const old = bareName(ix.label(v));
  const language = typeof node.language === 'string' ? node.language : undefined;
  if (!old) throw new RenameInputError(`Cannot plan a rename of '${ix.label(v)}': it has no identifier name`);
  if (node.kind === 'file') throw new RenameInputError(`Cannot plan a rename of '${ix.label(v)}': it is a file (rename symbols; move files with your editor or git mv)`);
  if (to === old) throw new RenameInputError(`Cannot plan a rename of '${old}': 'to' is the current name`);
  if (!isIdentifier(to, language)) throw new RenameInputError(`Cannot plan a rename of '${old}' to '${to}': not an identifier${language ? ` in ${language}` : ''} (letters, digits and _, not starting with a digit)`);
  const defFile = String(node.source_file ?? '');
  const sites = new SiteSet(old, to);
  const files = new FileTexts(read);
  if (defFile && files.get(defFile) === undefined) throw new RenameInputError(`Cannot plan a rename of '${old}': its file ${defFile} cannot be read (${files.error(defFile)})`);

  // The symbol and, for a type, the members that carry its name (Java/C# constructors) or are its constructors.
  const seeds = [v];
  const parent = ownerType(engine.ix, v);
  if (ix.isType(v)) for (const m of ix.members(v)) if (ix.node(m).kind === 'constructor' || bareName(ix.label(m)) === old) seeds.push(m);
  const seedSet = new Set(seeds);
  for (const s of seeds) if (bareName(ix.label(s)) === old) definitionSite(engine, s, files, sites, s === v ? 'definition' : 'definition (constructor)');

  const bound = new Set<string>(defFile ? [defFile] : []);
  const scope = new Set<string>(defFile ? [defFile] : []);
  const affected = new Set<NodeId>();
  for (const s of seeds) {
    for (let i = ix.inOff[s]!; i < ix.inOff[s + 1]!; i++) {
      const e = ix.inEdges[i]!;
      const relation = ix.relName(e);
      const src = ix.g.src[e]!;
      if (isStructural(relation) || seedSet.has(src)) continue;
      affected.add(src);
      const file = ix.edgeSiteFile(e);
      const line = ix.edgeLine[e]!;
      if (!file || !line) continue;
      scope.add(file);
      const conf = ix.edgeConf[e]!;
      if (conf === 0 || relation === 'imports_from') bound.add(file);
      const base = conf === 2 ? CONF.ambiguous : conf === 1 ? CONF.inferred : CONF.extracted;
      const why = REASON[relation] ?? relation;
      const onLine = files.onLine(file, line, old, language);
      if (onLine === undefined) {
        // Unreadable: the graph's line is all we know.
        sites.add({ file, line, col: 0, reason: `${why} from ${ix.label(src)} (source not readable)`, confidence: CONF.noToken });
        continue;
      }
      const code = onLine.filter((o) => o.where === 'code');
      for (const o of code) sites.add({ file, line, col: o.col, reason: conf === 2 ? `${why}, ambiguous (the call may mean another ${old})` : why, confidence: base });
      if (!code.length && s === v) sites.add({ file, line, col: 0, reason: `${why} from ${ix.label(src)}, but no '${old}' on this line (an alias, or a multi-line expression)`, confidence: CONF.noToken });
    }
  }
  // Files that import the symbol's file may use it through a namespace or a barrel without an edge to it.
  const fileNode = defFile ? ix.byFile.get(defFile)?.find((u) => ix.node(u).kind === 'file') : undefined;
  if (fileNode !== undefined) {
    for (let i = ix.inOff[fileNode]!; i < ix.inOff[fileNode + 1]!; i++) {
      const e = ix.inEdges[i]!;
      const relation = ix.relName(e);
      if (relation === 'imports' || relation === 're_exports' || relation === 'imports_from') scope.add(ix.edgeSiteFile(e));
    }
  }

  // Graph evidence before the text scan (a site keeps the first reason found).
  for (const m of relatedMembers(engine, v, parent, old)) definitionSite(engine, m, files, sites, `${ix.label(m)} overrides or implements the same member: rename it too, or the override breaks`, CONF.override);
  for (const u of collisions(engine, v, parent, to)) sites.add({ file: String(ix.node(u).source_file ?? ''), line: lineOf(ix.node(u).source_location), col: 0, reason: `${ix.label(u)} already exists here: '${to}' would collide with it`, confidence: CONF.conflict, old: ix.label(u) }, true);

  // Files that define another symbol of the same name: a use there may be that one.
  const namesake = new Set<string>();
  for (const u of [...(ix.byLabel.get(old.toLowerCase()) ?? []), ...(ix.byBare.get(old.toLowerCase()) ?? [])]) {
    if (u !== v && bareName(ix.label(u)) === old && ix.node(u).kind !== 'file') namesake.add(String(ix.node(u).source_file ?? ''));
  }
  // Every other whole-word occurrence in those files.
  // A member (Store.Get, Dog.speak): another `.Get` in these files may be any type's, so only the graph's sites are edits.
  const member = parent !== undefined || ix.label(v).replace(/\s*\(.*\)\s*$/, '') !== old;
  for (const file of scope) {
    const all = files.occurrences(file, old, language);
    if (!all) continue;
    const shadows = file !== defFile && namesake.has(file);
    for (const o of all) {
      if (sites.has(file, o.line, o.col)) continue;
      if (o.where === 'comment') sites.add({ file, line: o.line, col: o.col, reason: 'in a comment', confidence: CONF.comment });
      else if (o.where === 'string') sites.add({ file, line: o.line, col: o.col, reason: 'in a string literal (a by-name use?)', confidence: CONF.string });
      else if (!member && bound.has(file) && !shadows) sites.add({ file, line: o.line, col: o.col, reason: `use in a file that refers to ${old}`, confidence: CONF.sameFile });
      else sites.add({ file, line: o.line, col: o.col, reason: shadows ? `${file} defines another ${old}: check which one this is` : `same name, no graph edge to ${ix.label(v)} here (another symbol, or a use the graph missed)`, confidence: CONF.unbound });
    }
  }

  const dynamic = engine.dynamicScope(v).keyed;
  for (const d of dynamic) sites.add({ file: d.file, line: d.line, col: 0, reason: `${d.kind} by the name '${old}' in ${d.host}: a by-name lookup the rename does not change`, confidence: CONF.noToken });

  const { edits, review } = sites.split();
  const uncertain = review.some((s) => s.confidence !== CONF.comment && s.confidence !== CONF.string);
  const low = review.some((s) => s.confidence === CONF.conflict) || dynamic.length > 0 || review.length > edits.length;
  const confidence = low ? 'low' : uncertain || edits.some((s) => s.confidence < 0.9) ? 'medium' : 'high';
  return { target: v, old, to, confidence, edits, review, files: new Set(edits.map((s) => s.file)).size, affected: affected.size, scanned: files.read, unreadable: files.unreadable() };
}

/** The definition token of node u: the first code occurrence at or after its span's start, within its span. */
function definitionSite(engine: QueryEngine, u: NodeId, files: FileTexts, sites: SiteSet, reason: string, confidence = CONF.definition): void {
  const node = engine.ix.node(u);
  const file = String(node.source_file ?? '');
  const name = bareName(engine.ix.label(u));
  const language = typeof node.language === 'string' ? node.language : undefined;
  const start = node.span?.start_line ?? lineOf(node.source_location);
  const end = node.span?.end_line ?? start;
  const all = files.occurrences(file, name, language);
  const hit = all?.find((o) => o.where === 'code' && o.line >= start && o.line <= end && (o.line > start || o.col - 1 >= (node.span?.start_col ?? 0)));
  sites.add(hit ? { file, line: hit.line, col: hit.col, reason, confidence } : { file, line: start, col: 0, reason: `${reason}; no '${name}' token found in its recorded lines`, confidence: CONF.noToken });
}

/** Members named `name` of the types a member's owner inherits from, implements or is extended by (one hop each way), and `overrides` partners. */
function relatedMembers(engine: QueryEngine, v: NodeId, parent: NodeId | undefined, name: string): NodeId[] {
  const ix = engine.ix;
  const out = new Set<NodeId>();
  for (let i = ix.outOff[v]!; i < ix.outOff[v + 1]!; i++) if (ix.relName(ix.outEdges[i]!) === 'overrides') out.add(ix.g.dst[ix.outEdges[i]!]!);
  for (let i = ix.inOff[v]!; i < ix.inOff[v + 1]!; i++) if (ix.relName(ix.inEdges[i]!) === 'overrides') out.add(ix.g.src[ix.inEdges[i]!]!);
  if (parent !== undefined) {
    const types = new Set<NodeId>();
    for (let i = ix.outOff[parent]!; i < ix.outOff[parent + 1]!; i++) if (TYPE_LINKS.has(ix.relName(ix.outEdges[i]!))) types.add(ix.g.dst[ix.outEdges[i]!]!);
    for (let i = ix.inOff[parent]!; i < ix.inOff[parent + 1]!; i++) if (TYPE_LINKS.has(ix.relName(ix.inEdges[i]!))) types.add(ix.g.src[ix.inEdges[i]!]!);
    for (const t of types) for (const m of ix.members(t)) if (bareName(ix.label(m)) === name) out.add(m);
  }
  out.delete(v);
  return [...out];
}

/** Nodes already named `to` where the renamed symbol lives: the same owner type, or top level of the same file. */
function collisions(engine: QueryEngine, v: NodeId, parent: NodeId | undefined, to: string): NodeId[] {
  const ix = engine.ix;
  const file = ix.node(v).source_file;
  const candidates = [...(ix.byLabel.get(to.toLowerCase()) ?? []), ...(ix.byBare.get(to.toLowerCase()) ?? [])];
  return [...new Set(candidates)].filter((u) => u !== v && bareName(ix.label(u)) === to && ix.node(u).kind !== 'file' && ix.node(u).source_file === file && ownerType(engine.ix, u) === parent);
}

/** The plan's sites, one per file:line:col (the first reason found wins: graph evidence is added first). */
class SiteSet {
  private readonly byKey = new Map<string, RenameSite>();
  private readonly located = new Set<string>();
  private readonly pinned = new Set<string>();
  constructor(
    private readonly old: string,
    private readonly to: string,
  ) {}

  has(file: string, line: number, col: number): boolean {
    return this.byKey.has(`${file}\0${line}\0${col}`);
  }

  /** `pinned`: kept even on a line that has a located site (a collision is news there). */
  add(site: Omit<RenameSite, 'old' | 'to'> & { old?: string }, pinned = false): void {
    const key = `${site.file}\0${site.line}\0${site.col}${pinned ? '\0pinned' : ''}`;
    const lineKey = `${site.file}\0${site.line}`;
    if (site.col === 0 && !pinned && this.located.has(lineKey)) return; // the line already has a located site
    if (site.col > 0) this.located.add(lineKey);
    if (pinned) this.pinned.add(key);
    if (!this.byKey.has(key)) this.byKey.set(key, { old: this.old, to: this.to, ...site });
  }

  split(): { edits: RenameSite[]; review: RenameSite[] } {
    const all = [...this.byKey].filter(([key, s]) => s.col > 0 || this.pinned.has(key) || !this.located.has(`${s.file}\0${s.line}`)).map(([, s]) => s).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
    return { edits: all.filter((s) => s.col > 0 && s.confidence >= EDIT_THRESHOLD), review: all.filter((s) => s.col === 0 || s.confidence < EDIT_THRESHOLD) };
  }
}

/** Source texts read once per plan, with each file's occurrences of a name computed once. */
class FileTexts {
  private readonly texts = new Map<string, string | null>();
  private readonly errors = new Map<string, string>();
  private readonly found = new Map<string, Occurrence[]>();
  private readonly lines = new Map<string, Map<number, Occurrence[]>>();
  read = 0;

  constructor(private readonly reader: SourceReader) {}

  get(file: string): string | undefined {
    let text = this.texts.get(file);
    if (text === undefined) {
      try {
        text = this.reader(file) ?? null;
        if (text === null) this.errors.set(file, 'not readable');
      } catch (err) {
        text = null;
        this.errors.set(file, err instanceof Error ? err.message : String(err));
      }
      this.texts.set(file, text);
      if (text !== null) this.read++;
    }
    return text ?? undefined;
  }

  error(file: string): string {
    return this.errors.get(file) ?? 'not readable';
  }

  unreadable(): string[] {
    return [...this.errors.keys()].sort();
  }

  occurrences(file: string, name: string, language: string | undefined): Occurrence[] | undefined {
    const key = `${file}\0${name}`;
    let list = this.found.get(key);
    if (!list) {
      const text = this.get(file);
      if (text === undefined) return undefined;
      list = occurrences(text, name, languageOf(file) ?? language);
      this.found.set(key, list);
    }
    return list;
  }

  onLine(file: string, line: number, name: string, language: string | undefined): Occurrence[] | undefined {
    const all = this.occurrences(file, name, language);
    if (!all) return undefined;
    let byLine = this.lines.get(`${file}\0${name}`);
    if (!byLine) {
      byLine = new Map();
      for (const o of all) {
        const list = byLine.get(o.line);
        if (list) list.push(o);
        else byLine.set(o.line, [o]);
      }
      this.lines.set(`${file}\0${name}`, byLine);
    }
    return byLine.get(line) ?? [];
  }
}

const EXT_LANGUAGE: Record<string, string> = {
  py: 'python', pyi: 'python', rb: 'ruby', go: 'go', rs: 'rust', php: 'php', lua: 'lua', sql: 'sql', sh: 'shell',
  ts: 'typescript', tsx: 'tsx', mts: 'typescript', cts: 'typescript', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
};

/** The lexer family of a file by its extension (a use may sit in a file of another language than the definition). */
function languageOf(file: string): string | undefined {
  const dot = file.lastIndexOf('.');
  return dot < 0 ? undefined : EXT_LANGUAGE[file.slice(dot + 1).toLowerCase()];
}
