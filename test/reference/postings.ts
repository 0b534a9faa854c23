import type { NodeId } from '../../src/graph/model.ts';
import type { GraphIndex } from '../../src/query/graph-index.ts';
import { bareName, splitWords, stem, STOPWORDS } from '../../src/query/tokens.ts';

/**
 * The ranking postings as GraphIndex built them before the packed build (src/query/postings.ts): a
 * map of arrays per kind, one push per (node, term). Kept as the reference the packed build must equal.
 */
type Reference = { label: Map<string, NodeId[]>; path: Map<string, NodeId[]>; doc: Map<string, NodeId[]>; owner: Map<string, NodeId[]>; words: Uint8Array };

export function referencePostings(ix: GraphIndex): Reference {
  const words = new Uint8Array(ix.n);
  const label = new Map<string, NodeId[]>();
  const path = new Map<string, NodeId[]>();
  const doc = new Map<string, NodeId[]>();
  const owner = new Map<string, NodeId[]>();
  const ownerWords = new Map<string, string[]>();
  const fileTokens = new Map<string, string[]>();
  const stems = new Map<string, string>();
  const stemOf = (w: string) => {
    let s = stems.get(w);
    if (s === undefined) {
      s = stem(w);
      stems.set(w, s);
    }
    return s;
  };
  for (let v = 0; v < ix.n; v++) {
    const node = ix.g.nodes[v]!;
    const bare = bareName(ix.label(v)) || ix.label(v);
    const seen = new Set<string>();
    const split = splitWords(bare);
    // Scaffolding verbs (`get`, `handle`) are not words a question leaves uncovered.
    let content = 0;
    for (const w of split) if (!STOPWORDS.has(w)) content++;
    words[v] = Math.min(255, Math.max(1, content));
    for (const w of split) {
      const s = stemOf(w);
      if (!seen.has(s)) {
        seen.add(s);
        push(label, s, v);
      }
    }
    const full = bare.toLowerCase();
    if (full && !seen.has(full)) push(label, full, v);
    const whole = ix.label(v);
    const cut = whole.lastIndexOf(bare);
    if (cut > 0) {
      // Members of one type share its words: split and stem each owner prefix once.
      const prefix = whole.slice(0, cut);
      let words = ownerWords.get(prefix);
      if (!words) ownerWords.set(prefix, (words = [...new Set(splitWords(prefix).map(stemOf))]));
      for (const s of words) if (!seen.has(s)) push(owner, s, v);
    }
    const file = node.source_file;
    if (file) {
      let toks = fileTokens.get(file);
      if (!toks) {
        toks = [...new Set(splitWords(file.replace(/\.[A-Za-z0-9]+$/, '')).map(stemOf).filter((t) => t.length >= 2))];
        fileTokens.set(file, toks);
      }
      for (const t of toks) push(path, t, v);
    }
    // The comment's first 240 characters: its summary, not a long tutorial's every word.
    if (typeof node.doc === 'string' && node.doc) {
      const docSeen = new Set<string>();
      for (const w of splitWords(node.doc.slice(0, 240))) {
        if (w.length < 3 || STOPWORDS.has(w)) continue;
        const s = stemOf(w);
        if (seen.has(s) || docSeen.has(s)) continue;
        docSeen.add(s);
        push(doc, s, v);
      }
    }
  }
  return { label, path, doc, owner, words };
}

function push<K>(map: Map<K, NodeId[]>, key: K, v: NodeId): void {
  const list = map.get(key);
  if (list) list.push(v);
  else map.set(key, [v]);
}
