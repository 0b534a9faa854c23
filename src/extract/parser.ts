/**
 * web-tree-sitter loading: one `Parser` per language and one compiled tags `Query` per language,
 * created lazily and reused for every file parsed in this thread (worker). Node-only (reads the
 * grammar `.wasm` files and the `.scm` queries from disk).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Language, Parser, Query } from 'web-tree-sitter';
import { grammarName, queryName, type LanguageId } from './languages.ts';

export interface LanguageRuntime {
  parser: Parser;
  language: Language;
  query: Query;
}

let initPromise: Promise<void> | null = null;
const runtimes = new Map<LanguageId, Promise<LanguageRuntime>>();

function grammarDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
}

/**
 * Folder of the `.scm` tags queries: beside this file under tsx (src/extract), else the package's
 * src/extract/queries (package.json "files"), reached from dist/src/extract (tsc) or dist/cli (bundle).
 */
export function queriesDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'queries'), join(here, '..', '..', '..', 'src', 'extract', 'queries'), join(here, '..', '..', 'src', 'extract', 'queries')];
  return candidates.find((dir) => existsSync(join(dir, 'typescript.scm'))) ?? candidates[1]!;
}

/** The tags query source of a language. */
export function querySource(language: LanguageId): string {
  return readFileSync(join(queriesDir(), `${queryName(language)}.scm`), 'utf8');
}

async function load(language: LanguageId): Promise<LanguageRuntime> {
  initPromise ??= Parser.init();
  await initPromise;
  const file = join(grammarDir(), `tree-sitter-${grammarName(language)}.wasm`);
  let lang: Language;
  try {
    lang = await Language.load(readFileSync(file));
  } catch (err) {
    throw new Error(`Cannot load grammar "${language}": ${(err as Error).message || String(err)} (${file})`);
  }
  let query: Query;
  try {
    query = new Query(lang, querySource(language));
  } catch (err) {
    throw new Error(`Cannot compile tags query "${queryName(language)}.scm": ${(err as Error).message}`);
  }
  const parser = new Parser();
  parser.setLanguage(lang);
  return { parser, language: lang, query };
}

/** The (cached) parser, grammar and tags query of a language. */
export function runtimeFor(language: LanguageId): Promise<LanguageRuntime> {
  let r = runtimes.get(language);
  if (!r) {
    r = load(language);
    r.catch(() => runtimes.delete(language));
    runtimes.set(language, r);
  }
  return r;
}
