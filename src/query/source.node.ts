import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { sanitize } from './sanitize.ts';
import { compileSearchPattern, SearchPatternError, type SearchPattern } from './search-pattern.ts';

/** A read that the source jail refused or could not serve; the message names the cause and the root. */
export class SourceAccessError extends Error {
  override name = 'SourceAccessError';
}

/** Resolve the real path of a source root (symlinks resolved); undefined when it does not exist. */
export function realRoot(root: string | undefined): string | undefined {
  if (!root) return undefined;
  try {
    return realpathSync(root);
  } catch {
    return undefined;
  }
}

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Resolve a repo-relative path inside the jail. `..` escapes and absolute paths outside the root are
 * refused, and the real path (after symlinks) must stay inside the root too.
 */
export function jailPath(root: string | undefined, file: string): string {
  return jailFile(root, file).real;
}

/** {@link jailPath} plus the file's stat (one stat serves the file check and the cache check). */
function jailFile(root: string | undefined, file: string): { real: string; st: Stats } {
  if (!root) throw new SourceAccessError('Cannot read source: no source root configured (start the server with --source-root <dir>)');
  // The path may be a client's argument or a node's source_file: messages name it sanitized.
  if (file.includes('\0')) throw new SourceAccessError(`Cannot read source: invalid path '${sanitize(file, 400)}' (it contains a NUL byte)`);
  const candidate = isAbsolute(file) ? resolve(file) : resolve(root, file);
  if (!inside(root, candidate)) {
    throw new SourceAccessError(`Cannot read source: path '${sanitize(file, 400)}' resolves outside the source root ${sanitize(root, 400)} and was refused`);
  }
  let real: string;
  try {
    // One realpath(3) call (the JS realpathSync lstat's every path component); it fails exactly
    // where existsSync would say no.
    real = realpathSync.native(candidate);
  } catch {
    throw new SourceAccessError(
      `Cannot read source: '${sanitize(file, 400)}' was not found under ${sanitize(root, 400)} (in a federated workspace it may live in a sibling repo outside this root)`,
    );
  }
  if (!inside(root, real)) {
    throw new SourceAccessError(`Cannot read source: path '${sanitize(file, 400)}' resolves (through a symlink) outside the source root ${sanitize(root, 400)} and was refused`);
  }
  const st = statSync(real);
  if (!st.isFile()) throw new SourceAccessError(`Cannot read source: '${sanitize(file, 400)}' under ${sanitize(root, 400)} is not a file`);
  return { real, st };
}

interface CachedSource {
  mtimeMs: number;
  size: number;
  ino: number;
  text: string;
  /** Offset where each line starts; `lines` counts them as text.split('\n') without a trailing empty piece. */
  lineStarts: Uint32Array;
  lines: number;
}

/**
 * Recently read source files, most recent last, up to SOURCE_CACHE_CHARS characters in all. An entry
 * is used only while the file's mtime, size and inode still match (the jail's stat, taken on every read), so
 * an edit is seen at once; repeated reads of the same files (an agent paging through code, several
 * clients) skip the read and the line scan.
 */
const SOURCE_CACHE_CHARS = 4 * 1024 * 1024;
const sourceCache = new Map<string, CachedSource>();
let sourceCacheChars = 0;
/**
 * Admission: a file enters the cache on its second read among the last SEEN_LIMIT files read
 * uncached. One-off reads (a busy server answering symbols all over a big repository) then neither
 * evict the files being re-read nor keep their text alive long enough to be copied into the old
 * generation and swept there later; a file an agent pages through is cached from its second read.
 */
const SEEN_LIMIT = 256;
const seenOnce = new Set<string>();

function cachedSource(real: string, st: Stats): CachedSource {
  const hit = sourceCache.get(real);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size && hit.ino === st.ino) {
    sourceCache.delete(real);
    sourceCache.set(real, hit);
    return hit;
  }
  if (hit) {
    sourceCache.delete(real);
    sourceCacheChars -= hit.text.length;
  }
  const text = readFileSync(real, 'utf8');
  let breaks = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) breaks++;
  const lineStarts = new Uint32Array(breaks + 1);
  for (let i = text.indexOf('\n'), k = 1; i >= 0; i = text.indexOf('\n', i + 1)) lineStarts[k++] = i + 1;
  const lines = text.length === 0 || text.charCodeAt(text.length - 1) === 10 ? breaks : breaks + 1;
  const entry: CachedSource = { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, text, lineStarts, lines };
  const again = seenOnce.delete(real);
  if (!again) {
    seenOnce.add(real);
    if (seenOnce.size > SEEN_LIMIT) seenOnce.delete(seenOnce.values().next().value!);
  }
  if ((again || hit) && text.length <= SOURCE_CACHE_CHARS / 4) {
    sourceCache.set(real, entry);
    sourceCacheChars += text.length;
    for (const [key, old] of sourceCache) {
      if (sourceCacheChars <= SOURCE_CACHE_CHARS) break;
      sourceCache.delete(key);
      sourceCacheChars -= old.text.length;
    }
  }
  return entry;
}

/** Line n (1-based, 1..lineStarts.length, as text.split("\n") numbers them) of a cached source, without its newline. */
function lineOf(source: CachedSource, n: number): string {
  const start = source.lineStarts[n - 1]!;
  const next = n < source.lineStarts.length ? source.lineStarts[n]! - 1 : source.text.length;
  return source.text.slice(start, next);
}

/**
 * First reads (a file neither cached nor seen among the last SEEN_LIMIT uncached reads) go through a
 * reused byte buffer: the file is read into it, its newlines counted there (memchr per line), and only
 * the lines asked for are decoded. The whole text would be a fresh string of the file's size per call
 * (31 KB on average for a symbol of a large repository) plus a scan and an offset table, all garbage
 * a moment later. The lines are the ones the decoded text would give: '\n' never occurs inside a
 * UTF-8 sequence, and a malformed sequence decodes alike within its line or within the whole file.
 */
let scratch = Buffer.allocUnsafe(64 * 1024);
/** A scratch buffer grown past this for one large file is not kept. */
const SCRATCH_KEEP = 1024 * 1024;
let starts = new Uint32Array(1024);
/** A line-offset table grown past this many entries is dropped after the call. */
const STARTS_KEEP = 64 * 1024;

/** The whole file into the scratch buffer (or a one-off larger one): the buffer and the byte count. */
function readIntoScratch(real: string): { buf: Buffer; n: number } {
  let buf = scratch;
  const fd = openSync(real, 'r');
  try {
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        const grown = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(grown, 0, 0, n);
        buf = grown;
      }
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    if (buf !== scratch && buf.length <= SCRATCH_KEEP) scratch = buf;
    return { buf, n };
  } finally {
    closeSync(fd);
  }
}

/** {@link readLines} of a first read, from bytes (same answer as through cachedSource). */
function readLinesOnce(real: string, from: number, to: number): { lines: string[]; from: number; to: number; total: number } {
  const { buf, n } = readIntoScratch(real);
  // starts[k] = byte offset of line k + 1, kept for the lines up to max(from, to, 1) + 1 (the last one
  // is where the line before it ends); the newlines after them are only counted.
  const want = Math.max(from, to, 1) + 1;
  let kept = 1;
  starts[0] = 0;
  let breaks = 0;
  for (let i = n ? buf.indexOf(10, 0) : -1; i >= 0 && i < n; i = i + 1 < n ? buf.indexOf(10, i + 1) : -1) {
    breaks++;
    if (kept < want) {
      if (kept === starts.length) {
        const grown = new Uint32Array(starts.length * 2);
        grown.set(starts);
        starts = grown;
      }
      starts[kept++] = i + 1;
    }
  }
  const total = n === 0 || buf[n - 1] === 10 ? breaks : breaks + 1;
  const start = Math.max(1, Math.min(from, total || 1));
  const end = Math.max(start, Math.min(to, total));
  // Both ends are among the kept offsets (start <= max(from, 1) and end <= max(from, to, 1), or the
  // whole file was scanned); line `end` stops before the next line's start, or at the end of the file.
  const lines = total === 0 ? [] : buf.toString('utf8', starts[start - 1]!, end < kept ? starts[end]! - 1 : n).split('\n');
  if (starts.length > STARTS_KEEP) starts = new Uint32Array(1024); // a far line of a huge file: not kept
  return { lines, from: start, to: end, total };
}

/** The whole text of a jailed file (through the source cache: a rename plan reads the same files call after call). */
export function readSourceText(root: string | undefined, file: string): string {
  const { real, st } = jailFile(root, file);
  return cachedSource(real, st).text;
}

/** Read lines [from, to] (1-based, inclusive) of a jailed file. Returns the lines and the clamped range. */
export function readLines(root: string | undefined, file: string, from: number, to: number): { lines: string[]; from: number; to: number; total: number } {
  const { real, st } = jailFile(root, file);
  if (Number.isInteger(from) && Number.isInteger(to) && !sourceCache.has(real) && !seenOnce.has(real)) {
    // As cachedSource() treats a first read: remembered, not cached.
    seenOnce.add(real);
    if (seenOnce.size > SEEN_LIMIT) seenOnce.delete(seenOnce.values().next().value!);
    return readLinesOnce(real, from, to);
  }
  const source = cachedSource(real, st);
  const total = source.lines;
  const start = Math.max(1, Math.min(from, total || 1));
  const end = Math.max(start, Math.min(to, total));
  const lines: string[] = [];
  for (let line = start; line <= end && line <= total; line++) lines.push(lineOf(source, line));
  return { lines, from: start, to: end, total };
}

/** One line of a jailed file, trimmed, or undefined when it cannot be read. Cached per file for a call. */
export function lineReader(root: string | undefined): (file: string, line: number) => string | undefined {
  const cache = new Map<string, CachedSource | null>();
  return (file, line) => {
    let source = cache.get(file);
    if (source === undefined) {
      try {
        const { real, st } = jailFile(root, file);
        source = cachedSource(real, st);
      } catch {
        source = null;
      }
      cache.set(file, source);
    }
    // Lines as text.split('\n') numbers them (a final newline's empty piece included).
    if (!source || line < 1 || line > source.lineStarts.length) return undefined;
    return lineOf(source, line).trim();
  };
}

export interface TextHit {
  file: string;
  line: number;
  /** 1-based, in UTF-16 code units of the line as the file holds it. */
  col: number;
  match: string;
  /** The raw line (without its line break), cut to 300 characters and an ellipsis when longer. */
  line_text: string;
}

export interface TextSearchOptions {
  pattern: string;
  literal?: boolean;
  caseSensitive?: boolean;
  pathGlob?: string;
  maxResults: number;
  /** Sub-directory of the root to search (a federated member), repo-relative. */
  subdir?: string;
}

const SKIP_DIRS = new Set(['.git', 'node_modules', 'synaptic-out', '.hg', '.svn', 'dist', 'build', 'target', 'vendor', '__pycache__', '.venv', 'venv', '.next', 'coverage']);
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Longest stretch of matching before search_text lets the event loop answer other requests. */
const SEARCH_SLICE_MS = 10;

/** Convert a path glob (`**`, `*`, `?`, `{a,b}`) to a RegExp over `/`-separated relative paths. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close > i) {
        re += '(?:' + glob.slice(i + 1, close).split(',').map(escapeRe).join('|') + ')';
        i = close;
      } else re += '\\{';
    } else re += escapeRe(c);
  }
  return new RegExp('^' + re + '$');
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Simple .gitignore / .synapticignore matcher (name and path globs, directory rules, negation ignored). */
function ignoreRules(root: string): RegExp[] {
  const rules: RegExp[] = [];
  for (const name of ['.gitignore', '.synapticignore']) {
    const p = join(root, name);
    if (!existsSync(p)) continue;
    for (let line of readFileSync(p, 'utf8').split('\n')) {
      line = line.trim();
      if (!line || line.startsWith('#') || line.startsWith('!')) continue;
      line = line.replace(/\/$/, '');
      const anchored = line.startsWith('/') || line.includes('/');
      const body = line.replace(/^\//, '');
      rules.push(globToRegExp(anchored ? body : '**/' + body));
      rules.push(globToRegExp((anchored ? body : '**/' + body) + '/**'));
    }
  }
  return rules;
}

/**
 * Content search over the files under the jail: regex (or literal) with smart case, .gitignore /
 * .synapticignore honoured, Synaptic output and dependency folders skipped, symlinks that leave the
 * root skipped. Stops after maxResults hits (truncated is then true).
 */
export async function searchText(root: string | undefined, options: TextSearchOptions): Promise<{ hits: TextHit[]; total: number; truncated: boolean; filesScanned: number }> {
  if (!root) throw new SourceAccessError('Cannot search text: no source root configured (start the server with --source-root <dir>)');
  let pattern: SearchPattern;
  try {
    pattern = await compileSearchPattern(options.pattern, options);
  } catch (err) {
    if (err instanceof SearchPatternError) throw new SourceAccessError(err.message);
    throw err;
  }
  let base = root;
  if (options.subdir) {
    const sub = resolve(root, options.subdir);
    if (!inside(root, sub) || !existsSync(sub) || !inside(root, realpathSync(sub))) {
      throw new SourceAccessError(`Cannot search text: repo '${sanitize(options.subdir, 400)}' is not a directory inside the source root ${sanitize(root, 400)}`);
    }
    base = realpathSync(sub);
  }
  if (options.pathGlob && (options.pathGlob.split('/').includes('..') || isAbsolute(options.pathGlob))) {
    throw new SourceAccessError(`Cannot search text: path_glob '${sanitize(options.pathGlob, 400)}' must be relative to the source root ${sanitize(root, 400)} (no '..' or absolute paths)`);
  }
  const glob = options.pathGlob ? globToRegExp(options.pathGlob) : undefined;
  const ignores = ignoreRules(base);
  const hits: TextHit[] = [];
  let total = 0;
  let filesScanned = 0;
  let truncated = false;
  let sliceStart = performance.now();
  const walk = async (dir: string): Promise<void> => {
    if (truncated) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const ent of entries) {
      if (truncated) return;
      const full = join(dir, ent.name);
      const rel = relative(base, full).split(sep).join('/');
      if (ignores.some((r) => r.test(rel))) continue;
      let isDir = ent.isDirectory();
      let isFile = ent.isFile();
      if (ent.isSymbolicLink()) {
        try {
          const real = await realpath(full);
          if (!inside(root, real)) continue;
          const s = await stat(real);
          isDir = s.isDirectory();
          isFile = s.isFile();
        } catch {
          continue;
        }
      }
      if (isDir) {
        if (SKIP_DIRS.has(ent.name)) continue;
        if (existsSync(join(full, 'graph.json')) && existsSync(join(full, '.manifest.json'))) continue; // custom --out dir
        await walk(full);
        continue;
      }
      if (!isFile) continue;
      if (glob && !glob.test(rel)) continue;
      let buf: Buffer;
      try {
        const s = await stat(full);
        if (s.size > MAX_FILE_BYTES) continue;
        buf = await readFile(full);
      } catch {
        continue;
      }
      if (buf.subarray(0, 8000).includes(0)) continue; // binary
      filesScanned++;
      const content = buf.toString('utf8');
      if (!pattern.mayMatch(content)) continue;
      const lines = content.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (performance.now() - sliceStart > SEARCH_SLICE_MS) {
          await new Promise(setImmediate); // one big file must not keep other requests waiting
          sliceStart = performance.now();
        }
        const raw = lines[i]!;
        const text = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw; // a CRLF line, without its CR
        for (const m of pattern.matches(text)) {
          total++;
          if (hits.length < options.maxResults) {
            const fileRel = relative(root, full).split(sep).join('/');
            hits.push({ file: fileRel, line: i + 1, col: m.index + 1, match: m.text, line_text: text.length > 300 ? text.slice(0, 300) + '\u2026' : text });
          } else {
            truncated = true;
            return;
          }
        }
      }
    }
  };
  await walk(base);
  return { hits, total, truncated, filesScanned };
}
