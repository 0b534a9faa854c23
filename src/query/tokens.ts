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
  'via', 'through', 'between', 'against', 'among', 'upon', 'within', 'across', 'whether', 'several', 'each',
  'every', 'both', 'either', 'neither', 'many', 'much', 'more', 'most', 'few', 'such', 'another',
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
  // Their abbreviations in names (`HelpFunc`, `MongoRuntimeImpl`) say as little.
  'func', 'fn', 'impl',
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

/**
 * A light stemmer so the forms of one concept meet (`compose`/`composition`, `verify`/`verified`,
 * `parse`/`parser`, `validate`/`validator`): inflection, then one derivational suffix, then a final
 * `e`/`y`/`ate`/`ize`; never shorter than 3 letters. Labels and questions go through the same steps,
 * so what matters is that related forms agree, not that the stem is a word.
 */
export function stem(word: string): string {
  return finalStep(derivationStep(inflectionStep(word)));
}

const doubled = (w: string): boolean => w.length > 3 && w[w.length - 1] === w[w.length - 2] && !'aeiouls'.includes(w[w.length - 1]!);

/**
 * Irregular past forms a question uses for the verb a name spells in the present ("how is the
 * subcommand found" -> `Find`, "which proxy is chosen" -> `choose`).
 */
const IRREGULAR: ReadonlyMap<string, string> = new Map(
  Object.entries({
    found: 'find', chosen: 'choose', chose: 'choose', built: 'build', sent: 'send', made: 'make', written: 'write',
    wrote: 'write', ran: 'run', got: 'get', gotten: 'get', held: 'hold', kept: 'keep', taken: 'take', took: 'take',
    given: 'give', gave: 'give', shown: 'show', thrown: 'throw', threw: 'throw', drawn: 'draw', drew: 'draw',
    hidden: 'hide', broken: 'break', broke: 'break', driven: 'drive', gone: 'go', went: 'go', seen: 'see',
    sold: 'sell', told: 'tell', thought: 'think', brought: 'bring', caught: 'catch', sought: 'seek', paid: 'pay',
    said: 'say', understood: 'understand', began: 'begin', begun: 'begin', fallen: 'fall', forgot: 'forget',
    forgotten: 'forget', froze: 'freeze', frozen: 'freeze', spoken: 'speak', stolen: 'steal', bought: 'buy',
  }),
);

function inflectionStep(word: string): string {
  const w = IRREGULAR.get(word) ?? word;
  if (w.length > 4 && (w.endsWith('ies') || w.endsWith('ied'))) return w.slice(0, -3) + 'y';
  for (const suffix of ['ing', 'ed']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      const base = w.slice(0, -suffix.length);
      // validat(ed) -> validate, enabl(ed) -> enable, normaliz(ed) -> normalize; emitt(ed) -> emit.
      if (/(at|bl|iz)$/.test(base)) return base + 'e';
      return doubled(base) ? base.slice(0, -1) : base;
    }
  }
  if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** One derivational suffix, longest first: [suffix, replacement, letters that must remain]. */
const DERIVATIONS: ReadonlyArray<readonly [string, string, number]> = [
  ['ification', 'ify', 2], ['ization', 'ize', 3], ['ature', '', 3], ['ational', 'ate', 3], ['ation', 'ate', 2], ['ition', 'e', 3],
  ['ator', 'ate', 2], ['ment', '', 4], ['ness', '', 3], ['ier', 'y', 3], ['tion', 't', 2], ['sion', 's', 2],
  ['er', '', 3], ['or', '', 4],
];

function derivationStep(w: string): string {
  for (const [suffix, replacement, keep] of DERIVATIONS) {
    if (w.length - suffix.length >= keep && w.endsWith(suffix)) return w.slice(0, -suffix.length) + replacement;
  }
  return w;
}

function finalStep(word: string): string {
  let w = word;
  for (const [suffix, keep] of [['ate', 4], ['ize', 4], ['ie', 3], ['e', 3], ['y', 4]] as const) {
    if (w.length - suffix.length >= keep && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return doubled(w) ? w.slice(0, -1) : w;
}

/**
 * Abbreviations code uses for a word a question spells out (stems on both sides): a question about
 * "completion" also looks up cobra's `genBashComp`, one about `cfg` also `configuration`.
 */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map(
  [
    ['gen', 'generate'], ['ctx', 'context'], ['req', 'request'], ['cfg', 'configure'], ['conf', 'configure'],
    ['config', 'configure'], ['auth', 'authenticate'], ['err', 'error'], ['msg', 'message'], ['fn', 'function'],
    ['func', 'function'], ['arg', 'argument'], ['param', 'parameter'], ['env', 'environment'],
    ['impl', 'implement'], ['exec', 'execute'], ['cmd', 'command'], ['comp', 'complete'], ['tmpl', 'template'],
    ['conn', 'connect'], ['db', 'database'], ['repo', 'repository'], ['dir', 'directory'], ['attr', 'attribute'],
  ].map(([abbr, full]) => [abbr!, stem(full!)]),
);
const EXPANSIONS: ReadonlyMap<string, string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const [abbr, full] of ABBREVIATIONS) m.set(full, [...(m.get(full) ?? []), abbr]);
  return m;
})();

/** The other spellings of a question token: its expansion or its abbreviations. */
export function tokenVariants(token: string): readonly string[] {
  const full = ABBREVIATIONS.get(token);
  return full ? [full] : (EXPANSIONS.get(token) ?? []);
}

/**
 * Acronyms a question spells out: the initials of 3 or 4 consecutive words that are not grammar
 * ("server-sent events" -> sse, "JSON web token" -> jwt), each with the words it covers.
 */
export function spelledAcronyms(question: string): Array<{ acronym: string; words: string[] }> {
  const words = question
    .replace(/`[^`]*`/g, ' ')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 1 && !GRAMMAR_WORDS.has(w.toLowerCase()))
    .map((w) => w.toLowerCase());
  const out: Array<{ acronym: string; words: string[] }> = [];
  for (const size of [3, 4]) {
    for (let i = 0; i + size <= words.length; i++) {
      const run = words.slice(i, i + size);
      out.push({ acronym: run.map((w) => w[0]).join(''), words: run });
    }
  }
  return out;
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
