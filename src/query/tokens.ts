/**
 * Identifier and question tokenization for ranking: camelCase / PascalCase / snake_case / kebab-case
 * splitting, lower-casing, a light stemmer, and the scaffolding words a natural-language question
 * carries that say nothing about the code. Browser-safe.
 */

/**
 * English function words: the grammar of a question (articles, prepositions, conjunctions, pronouns,
 * auxiliaries, question words). Never a name the asker means, unless written in backticks.
 */
export const GRAMMAR_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'nor', 'but', 'of', 'to', 'in', 'on', 'for', 'by', 'with', 'from', 'at', 'as',
  'into', 'onto', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'how', 'what',
  'where', 'which', 'who', 'whom', 'whose', 'why', 'when', 'that', 'this', 'these', 'those', 'it', 'its', 'there',
  'here', 'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'might', 'must', 'i', 'me', 'my', 'we',
  'our', 'us', 'you', 'your', 'they', 'them', 'their', 'he', 'him', 'his', 'she', 'her', 'about', 'all', 'any',
  'some', 'if', 'then', 'else', 'not', 'no', 'so', 'than', 'too', 'very', 'just', 'also', 'only', 'up', 'out',
  'via', 'through', 'between',
]);

/**
 * Words that frame a question but name no code concept: the grammar words plus the verbs and nouns
 * questions about code are phrased with. These can still be symbol names (`handle`, `get`), so they
 * are dropped from the search tokens but still looked up as exact names.
 */
export const STOPWORDS: ReadonlySet<string> = new Set([
  ...GRAMMAR_WORDS,
  'done', 'doing', 'work', 'works', 'working', 'happen', 'happens', 'get', 'gets', 'use', 'used', 'uses', 'using',
  'code', 'implemented', 'implement', 'handle', 'handled', 'show', 'find', 'tell', 'explain', 'function',
  'functions', 'method', 'methods', 'class', 'classes', 'file', 'files', 'call', 'calls', 'called', 'logic',
  'thing', 'things', 'part',
]);

/** A question split into prose and `code spans` (the text between a pair of backticks). */
function questionParts(question: string): Array<{ text: string; code: boolean }> {
  const parts = question.split('`');
  // An unpaired last backtick opens no span: its text is prose.
  return parts.map((text, i) => ({ text, code: i % 2 === 1 && i < parts.length - 1 }));
}

/**
 * The pieces of a question looked up as exact symbol names: every piece of a code span, a question
 * that is one word (`fn`, or even `a`), and otherwise each word that is not grammar: a one-letter word
 * or a grammar word in prose ("the a of and") is how the question is phrased, not what it names.
 */
export function namePieces(question: string): string[] {
  const code: string[] = [];
  const prose: string[] = [];
  for (const part of questionParts(question)) {
    for (const piece of part.text.split(/[\s,;:?!'"()]+/)) if (piece) (part.code ? code : prose).push(piece);
  }
  if (!code.length && prose.length === 1) return prose;
  return [...code, ...prose.filter((piece) => !isGrammar(piece))];
}

/** A one-letter word (not a digit) or a grammar word. */
function isGrammar(piece: string): boolean {
  const w = piece.toLowerCase();
  return GRAMMAR_WORDS.has(w) || (w.length === 1 && !(w >= '0' && w <= '9'));
}

/** Split an identifier or phrase into lower-case word tokens (camel, snake, kebab, dots, digits). */
export function splitWords(text: string): string[] {
  // Hand-rolled (no regex): this runs for every node label at load and for every match at query time.
  const out: string[] = [];
  let start = -1;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    const digit = c >= 48 && c <= 57;
    if (!(upper || lower || digit)) {
      if (start >= 0) out.push(text.slice(start, i).toLowerCase());
      start = -1;
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    if (upper) {
      const p = text.charCodeAt(i - 1);
      const prevLowerOrDigit = (p >= 97 && p <= 122) || (p >= 48 && p <= 57);
      const prevUpper = p >= 65 && p <= 90;
      const nx = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      const nextLower = nx >= 97 && nx <= 122;
      // fooBar -> foo|Bar; HTTPServer -> HTTP|Server; v2Api -> v2|Api
      if (prevLowerOrDigit || (prevUpper && nextLower)) {
        out.push(text.slice(start, i).toLowerCase());
        start = i;
      }
    }
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
  let end = label.length;
  while (end > 0 && isSpace(label.charCodeAt(end - 1))) end--;
  // Drop a trailing parameter list: `f(a, b)` -> `f`.
  if (end > 0 && label.charCodeAt(end - 1) === 41 /* ) */) {
    const open = label.indexOf('(');
    if (open >= 0) {
      end = open;
      while (end > 0 && isSpace(label.charCodeAt(end - 1))) end--;
    }
  }
  let start = end;
  while (start > 0 && isIdent(label.charCodeAt(start - 1))) start--;
  // An identifier cannot start with a digit: skip leading digits of the run.
  while (start < end && label.charCodeAt(start) >= 48 && label.charCodeAt(start) <= 57) start++;
  if (start < end) return label.slice(start, end);
  let s = 0;
  while (s < end && !isIdent(label.charCodeAt(s))) s++;
  return label.slice(s, end);
}

function isIdent(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Tokens of a question: words, minus scaffolding, stemmed, de-duplicated, in order. */
export function questionTokens(question: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of questionParts(question)) {
    for (const piece of part.text.split(/\s+/)) {
      const words = splitWords(piece);
      // A symbol-shaped token (fooBar, foo_bar, Foo.bar, or anything in backticks) keeps every part, even stopwords.
      const symbolShaped = part.code || /[a-z][A-Z]|_|\.\w/.test(piece) || words.length > 1;
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
  }
  return out;
}
