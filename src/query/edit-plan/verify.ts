import type { NodeId } from '../../graph/model.ts';
import type { QueryEngine } from '../engine.ts';
import { isStructural } from '../relations.ts';
import { bareName } from '../tokens.ts';
import { occurrences } from './occurrences.ts';
import type { SourceReader } from './rename.ts';

export interface VerifyCheck {
  ok: boolean;
  /** One line: what was checked and what was found. */
  summary: string;
  /** The evidence of a failure (file:line:col of a leftover, a relation whose count changed), or notes. */
  details: string[];
}

export interface RenameVerification {
  ok: boolean;
  checks: VerifyCheck[];
}

/** The nodes a rename of `old` is about in the pre-edit graph: bare name `old`, narrowed by an exact id or a file substring. */
export function renameTargets(before: QueryEngine, old: string, narrow: { id?: string; file?: string } = {}): NodeId[] {
  const ix = before.ix;
  if (narrow.id !== undefined) {
    const v = ix.g.idOf.get(narrow.id);
    return v !== undefined && bareName(ix.label(v)) === old ? [v] : [];
  }
  const ids = [...new Set([...(ix.byLabel.get(old.toLowerCase()) ?? []), ...(ix.byBare.get(old.toLowerCase()) ?? [])])];
  const file = narrow.file?.toLowerCase();
  return ids
    .filter((v) => bareName(ix.label(v)) === old && ix.node(v).kind !== 'file')
    .filter((v) => !file || String(ix.node(v).source_file ?? '').toLowerCase().includes(file))
    .sort((a, b) => a - b);
}

/** The id a node gets after the rename: the old name replaced as a whole word in the part after `#` (`src/a.ts#Dog.speak` -> `src/a.ts#Dog.bark`). */
export function renamedId(id: string, old: string, to: string): string {
  const hash = id.lastIndexOf('#');
  if (hash < 0) return id;
  const escaped = old.replace(/[$]/g, '\\$');
  return id.slice(0, hash + 1) + id.slice(hash + 1).replace(new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`, 'g'), to);
}

/**
 * Compare the graph before a rename with the graph of the edited tree: the definitions carry the new
 * name (and the old ids are gone); no code token of the old name is left in the code files (comments
 * and strings are noted, not failed); and the edges are the same modulo the rename (the total, and
 * each renamed node's edges per relation and direction).
 */
export function verifyRename(before: QueryEngine, after: QueryEngine, targets: NodeId[], old: string, to: string, read: SourceReader): RenameVerification {
  const checks: VerifyCheck[] = [definitionsCheck(before, after, targets, old, to), leftoversCheck(before, after, targets, old, read), edgesCheck(before, after, targets, old, to)];
  return { ok: checks.every((c) => c.ok), checks };
}

/**
 * The same checks when the graph was already updated after the edit (a server keeps synaptic-out
 * fresh): `renamed` are the nodes named `to` there. The definitions and the leftovers are checked
 * on the edited tree's graph; the edge comparison needs the pre-edit graph and is skipped, saying so.
 */
export function verifyRenamed(after: QueryEngine, renamed: NodeId[], old: string, to: string, read: SourceReader): RenameVerification {
  const ix = after.ix;
  const files = new Set(renamed.map((v) => String(ix.node(v).source_file ?? '')));
  const stale = renameTargets(after, old).filter((v) => files.has(String(ix.node(v).source_file ?? '')) && renamed.some((r) => renamedId(ix.node(v).id, old, to) === ix.node(r).id));
  const definitions: VerifyCheck = !renamed.length
    ? { ok: false, summary: `no symbol named '${to}' in the edited tree's graph`, details: [] }
    : stale.length
    ? { ok: false, summary: `definition not renamed (${stale.length} problem(s))`, details: stale.map((v) => `${ix.node(v).id} is still defined (the definition was not renamed)`) }
    : { ok: true, summary: `definition renamed: ${renamed.map((v) => ix.node(v).id).join(', ')}`, details: [] };
  const edges: VerifyCheck = {
    ok: true,
    summary: 'edges: not compared',
    details: ['the graph was updated after the edit, so there is no pre-edit graph to compare with (run verify before synaptic update, or serve with --no-freshen while renaming)'],
  };
  const checks = [definitions, leftoversCheck(after, after, renamed, old, read), edges];
  return { ok: checks.every((c) => c.ok), checks };
}

function definitionsCheck(before: QueryEngine, after: QueryEngine, targets: NodeId[], old: string, to: string): VerifyCheck {
  const details: string[] = [];
  const found: string[] = [];
  for (const t of targets) {
    const id = before.ix.node(t).id;
    const next = renamedId(id, old, to);
    if (after.ix.g.idOf.has(id) && next !== id) details.push(`${id} is still defined (the definition was not renamed)`);
    if (!after.ix.g.idOf.has(next)) details.push(`no ${next} in the edited tree's graph (expected the renamed ${before.ix.label(t)})`);
    else found.push(next);
  }
  return details.length
    ? { ok: false, summary: `definition not renamed (${details.length} problem(s))`, details }
    : { ok: true, summary: `definition renamed: ${found.join(', ')}`, details: [] };
}

function leftoversCheck(before: QueryEngine, after: QueryEngine, targets: NodeId[], old: string, read: SourceReader): VerifyCheck {
  const bix = before.ix;
  const targetSet = new Set(targets);
  // Other symbols that keep the old name: their files (and the files that use them) may rightly still say it.
  const others = renameTargets(before, old).filter((v) => !targetSet.has(v));
  const excused = new Set<string>();
  for (const o of others) {
    excused.add(String(bix.node(o).source_file ?? ''));
    for (let i = bix.inOff[o]!; i < bix.inOff[o + 1]!; i++) excused.add(bix.edgeSiteFile(bix.inEdges[i]!));
  }
  const files: string[] = [];
  for (const [file, ids] of after.ix.byFile) {
    const head = after.ix.node(ids[0]!);
    if (head.kind === 'file' && head.file_type === 'code' && !excused.has(file)) files.push(file);
  }
  files.sort();
  const code: string[] = [];
  const mentions: string[] = [];
  let unreadable = 0;
  for (const file of files) {
    let text: string | undefined;
    try {
      text = read(file);
    } catch {
      text = undefined;
    }
    if (text === undefined) {
      unreadable++;
      continue;
    }
    const language = after.ix.node(after.ix.byFile.get(file)![0]!).language;
    for (const o of occurrences(text, old, typeof language === 'string' ? language : undefined)) {
      (o.where === 'code' ? code : mentions).push(`${file}:${o.line}:${o.col}${o.where === 'code' ? '' : ` (in a ${o.where})`}`);
    }
  }
  const notes = [
    ...(mentions.length ? [`${mentions.length} mention(s) in comments or strings (not code): ${mentions.slice(0, 10).join(', ')}${mentions.length > 10 ? ', ...' : ''}`] : []),
    ...(excused.size ? [`${excused.size} file(s) not scanned: they define or use another '${old}'`] : []),
    ...(unreadable ? [`${unreadable} file(s) could not be read`] : []),
  ];
  if (code.length) return { ok: false, summary: `${code.length} code reference(s) to '${old}' left (dangling)`, details: [...code.slice(0, 50), ...(code.length > 50 ? [`+${code.length - 50} more`] : []), ...notes] };
  return { ok: true, summary: `no code reference to '${old}' left (${files.length} code file(s) scanned)`, details: notes };
}

function edgesCheck(before: QueryEngine, after: QueryEngine, targets: NodeId[], old: string, to: string): VerifyCheck {
  const details: string[] = [];
  if (before.ix.m !== after.ix.m) details.push(`the graph has ${after.ix.m} edges, ${before.ix.m} before`);
  let counted = 0;
  for (const t of targets) {
    const next = after.ix.g.idOf.get(renamedId(before.ix.node(t).id, old, to));
    if (next === undefined) continue; // reported by the definition check
    const was = edgeCounts(before, t);
    const now = edgeCounts(after, next);
    for (const key of new Set([...was.keys(), ...now.keys()])) {
      const a = was.get(key) ?? 0;
      const b = now.get(key) ?? 0;
      if (a !== b) details.push(`${after.ix.label(next)} ${key}: ${b}, ${before.ix.label(t)} had ${a}`);
      counted += a;
    }
  }
  return details.length
    ? { ok: false, summary: 'edges changed beyond the rename', details }
    : { ok: true, summary: `edges: ${after.ix.m} before and after; the renamed symbol keeps its ${counted} edge(s)`, details: [] };
}

/** `in calls`, `out references`, ...: a node's edge counts per direction and relation (ownership edges included, both ways). */
function edgeCounts(engine: QueryEngine, v: NodeId): Map<string, number> {
  const ix = engine.ix;
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (let i = ix.inOff[v]!; i < ix.inOff[v + 1]!; i++) add(`${isStructural(ix.relName(ix.inEdges[i]!)) ? 'owned by' : 'in'} ${ix.relName(ix.inEdges[i]!)}`);
  for (let i = ix.outOff[v]!; i < ix.outOff[v + 1]!; i++) add(`out ${ix.relName(ix.outEdges[i]!)}`);
  return counts;
}
