/**
 * Identifier and question tokenization for ranking: camelCase / PascalCase / snake_case / kebab-case
 * splitting, lower-casing, a light stemmer, and the scaffolding words a natural-language question
 * carries that say nothing about the code. Browser-safe.
 */

/** Words that frame a question but name no code concept. */
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'by', 'with', 'from', 'at', 'as', 'into',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'do', 'does', 'did', 'done', 'doing', 'how', 'what',
  'where', 'which', 'who', 'whom', 'why', 'when', 'that', 'this', 'these', 'those', 'it', 'its', 'there',
  'here', 'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'might', 'must', 'i', 'me', 'my', 'we',
  'our', 'you', 'your', 'they', 'them', 'their', 'he', 'she', 'work', 'works', 'working', 'happen',
  'happens', 'get', 'gets', 'use', 'used', 'uses', 'using', 'code', 'implemented', 'implement', 'handle',
  'handled', 'show', 'find', 'tell', 'about', 'explain', 'all', 'any', 'some', 'if', 'then', 'else', 'not',
  'no', 'so', 'up', 'out', 'via', 'through', 'between', 'function', 'functions', 'method', 'methods',
  'class', 'classes', 'file', 'files', 'call', 'calls', 'called', 'logic', 'thing', 'things', 'part',
]);

/** Split an identifier or phrase into lower-case word tokens (camel, snake, kebab, dots, digits). */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  const parts = text.split(/[^A-Za-z0-9]+/);
  for (const part of parts) {
    if (!part) continue;
    // fooBar -> foo Bar; HTTPServer -> HTTP Server; v2Api -> v2 Api
    const spaced = part
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
    for (const w of spaced.split(' ')) if (w) out.push(w.toLowerCase());
  }
  return out;
}

/** A light suffix stemmer so `logins`, `login`, `logging` meet; never shorter than 3 letters. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  for (const suffix of ['ing', 'ers', 'ed', 'er', 'es', 's']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.length > 3 && w[w.length - 1] === w[w.length - 2] && !/[aeiou]/.test(w[w.length - 1]!)) w = w.slice(0, -1);
  return w;
}

/** The bare symbol name of a label: `.get_node()` -> `get_node`, `Auth.login()` -> `login`. */
export function bareName(label: string): string {
  let s = label.trim();
  s = s.replace(/\(.*\)\s*$/, '');
  const m = /([A-Za-z_$][\w$]*)\s*$/.exec(s);
  if (m) return m[1]!;
  return s.replace(/^[^A-Za-z0-9_$]+/, '');
}

/** Tokens of a question: words, minus scaffolding, stemmed, de-duplicated, in order. */
export function questionTokens(question: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const raw = question.split(/\s+/);
  for (const piece of raw) {
    const words = splitWords(piece);
    // A symbol-shaped token (fooBar, foo_bar, Foo.bar) keeps every part, even stopwords.
    const symbolShaped = /[a-z][A-Z]|_|\.\w/.test(piece) || words.length > 1;
    for (const w of words) {
      if (!symbolShaped && STOPWORDS.has(w)) continue;
      if (w.length < 2 && !/\d/.test(w)) continue;
      const s = stem(w);
      if (!seen.has(s)) {
        seen.add(s);
        out.push(s);
      }
    }
  }
  return out;
}
