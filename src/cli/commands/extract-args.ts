import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../command.ts';
import type { ExtractSummary } from '../../extract/pipeline.node.ts';
import { OUTPUT_DIR_NAME } from '../../extract/identity.node.ts';
import { checkOutputFolder } from '../../extract/out/check.node.ts';
import { createProgress } from '../progress.ts';
import { synapticCommand } from '../invocation.ts';
import { dialectNamed } from '../../extract/sql/dialect-names.ts';

/** Options shared by `synaptic extract` and `synaptic update`. */
export interface ExtractArgs {
  root: string;
  outDir: string;
  json: boolean;
  maxFileSize?: number;
  workers?: number;
  /** `--precise` / `--no-precise`; absent: the mode of the previous run (default mode on a first run). */
  precise?: boolean;
  /** `--sql-dialect`: postgres, mysql, mariadb, sqlite, auto (the default: from the project, else each file's syntax) or off. */
  sqlDialect?: string;
  /** `--store` / `--no-store`; absent: extract writes the shard, update keeps the folder's (writes one on a first run). */
  store?: 'write' | 'off';
}

export const EXTRACT_OPTIONS_USAGE = `Options:
  --out <dir>              output folder (default: <path>/${OUTPUT_DIR_NAME})
  --json                   print a machine-readable summary on stdout
  --max-file-size <bytes>  skip source files larger than this (default: 1048576)
  --workers <n>            parallel parse lanes (default: one per core; 0 = this thread only)
  --precise                TypeScript/JavaScript call edges from the TypeScript checker (slower; kept
                           by later updates until --no-precise)
  --sql-dialect <d>        SQL dialect of .sql files and queries in code: postgres, mysql, mariadb,
                           sqlite, auto (default: from the project's drivers, else each text's syntax),
                           or off (no SQL extraction)
  --no-store               write no shard store (graph.shard, docs/store.md) and remove an old one;
                           extract writes it by default, update keeps the folder's up to date
  --store                  update: write the shard store also when the folder has none`;

function sqlDialectArg(value: string | undefined): string {
  const v = (value ?? '').trim().toLowerCase();
  if (v === 'off' || v === 'auto' || dialectNamed(v)) return v;
  throw new UsageError(`Cannot parse --sql-dialect: expected postgres, mysql, mariadb, sqlite, auto or off, got '${value ?? ''}'`);
}

function positiveInt(flag: string, value: string | undefined, allowZero = false): number {
  if (value === undefined || !/^\d+$/.test(value) || (!allowZero && Number(value) === 0)) {
    throw new UsageError(`Cannot parse ${flag}: expected a ${allowZero ? 'non-negative' : 'positive'} integer, got '${value ?? ''}'`);
  }
  return Number(value);
}

/** Parse and validate the arguments; a bad one throws UsageError (exit code 2). */
export function parseExtractArgs(argv: string[], action: string): ExtractArgs {
  let path: string | undefined;
  let out: string | undefined;
  let json = false;
  let maxFileSize: number | undefined;
  let workers: number | undefined;
  let precise: boolean | undefined;
  let sqlDialect: string | undefined;
  let store: ExtractArgs['store'];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--out') {
      out = value();
      if (!out) throw new UsageError('Cannot parse --out: expected a folder');
    } else if (flag === '--json') json = true;
    else if (flag === '--max-file-size') maxFileSize = positiveInt('--max-file-size', value());
    else if (flag === '--workers') workers = positiveInt('--workers', value(), true);
    else if (flag === '--precise' || flag === '--no-precise') precise = flag === '--precise';
    else if (flag === '--sql-dialect') sqlDialect = sqlDialectArg(value());
    else if (flag === '--store' || flag === '--no-store') store = flag === '--store' ? 'write' : 'off';
    else if (flag.startsWith('-')) throw new UsageError(`Cannot ${action}: unknown option '${flag}'`);
    else if (path === undefined) path = arg;
    else throw new UsageError(`Cannot ${action}: unexpected argument '${arg}' (one path at most)`);
  }
  const root = resolve(path ?? process.cwd());
  let st;
  try {
    st = statSync(root);
  } catch {
    throw new UsageError(`Cannot ${action}: path '${path ?? root}' does not exist`);
  }
  if (!st.isDirectory()) throw new UsageError(`Cannot ${action}: path '${path ?? root}' is not a directory`);
  const outDir = resolve(out ?? join(root, OUTPUT_DIR_NAME));
  try {
    checkOutputFolder(outDir);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  try {
    mkdirSync(outDir, { recursive: true });
    const probe = join(outDir, `.write-probe-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot write output folder '${outDir}': ${code ?? (err as Error).message}`);
  }
  return {
    root, outDir, json, ...(sqlDialect !== undefined ? { sqlDialect } : {}), ...(maxFileSize !== undefined ? { maxFileSize } : {}), ...(workers !== undefined ? { workers } : {}),
    ...(precise !== undefined ? { precise } : {}), ...(store !== undefined ? { store } : {}),
  };
}

/** Run extract/update with a progress bar on a TTY; prints the --json summary. Returns the exit code. */
export async function runExtractCommand(args: ExtractArgs, incremental: boolean, suggestWatch = true): Promise<number> {
  // Loaded here, not at the top: `update` first asks a running watcher, which needs none of it.
  const { runExtract } = await import('../../extract/pipeline.node.ts');
  // The extraction threads read it (src/extract/sql/dialect-project.node.ts).
  if (args.sqlDialect) process.env.SYNAPTIC_SQL_DIALECT = args.sqlDialect;
  const progress = createProgress(process.stderr, incremental ? 'updating' : 'extracting');
  const firstRun = !existsSync(join(args.outDir, 'graph.json'));
  let summary: ExtractSummary;
  try {
    summary = await runExtract({
      root: args.root,
      outDir: args.outDir,
      incremental,
      ...(args.maxFileSize !== undefined ? { maxFileSize: args.maxFileSize } : {}),
      ...(args.workers !== undefined ? { workers: args.workers } : {}),
      ...(args.precise !== undefined ? { precise: args.precise } : {}),
      // extract (and an update's first run) writes the shard store; an update keeps the folder's
      store: args.store ?? (!incremental || firstRun ? 'write' : 'keep'),
      onProgress: ({ done, total }) => progress.update(done, total),
      onPhase: (phase) => progress.phase(phase),
    });
  } finally {
    progress.finish();
  }
  printSummary(summary, args.json);
  if (firstRun && !args.json) process.stderr.write(nextStep(summary));
  // Most of a slow one-file update is start-up and re-reading the previous outputs.
  if (suggestWatch && !args.json && process.stderr.isTTY && summary.mode === 'update' && summary.parsed > 0 && summary.timingsMs.total > 1500) {
    process.stderr.write('tip: `synaptic update --watch` stays running and updates after each edit (and answers `synaptic update` too), much faster on a repository this size\n');
  }
  return 0;
}

/**
 * The --json summary on stdout, else the one-line summary on stderr (always: stderr is the log
 * channel, and a silent success leaves a user guessing whether anything was written).
 */
export function printSummary(summary: ExtractSummary, json: boolean, note = ''): void {
  printRepairs(summary);
  if (json) process.stdout.write(JSON.stringify(summary) + '\n');
  else process.stderr.write(summaryLine(summary) + note + '\n');
}

/** What a run found wrong with the output folder and did about it, one line each on stderr (also with --json). */
export function printRepairs(summary: ExtractSummary): void {
  // (a keeper of an older synaptic sends summaries without them)
  for (const repair of summary.repairs ?? []) process.stderr.write(`synaptic: ${repair}\n`);
}

/** `ts 120, py 3, +2 more` for the most frequent languages of a run. */
function languageList(languages: Record<string, number>, shown = 4): string {
  const entries = Object.entries(languages).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (entries.length === 0) return 'no supported languages';
  const head = entries.slice(0, shown).map(([lang, n]) => `${lang} ${n}`).join(', ');
  return entries.length > shown ? `${head}, +${entries.length - shown} more` : head;
}

/** The one-line human summary of a run. */
export function summaryLine(summary: ExtractSummary): string {
  return `${summary.mode === 'update' ? 'updated' : 'extracted'} ${plural(summary.files, 'file')} (${summary.parsed} parsed, ${summary.reused} reused; ${languageList(summary.languages)}): `
    + `${summary.nodes} nodes, ${summary.links} links, ${summary.communities} communities, ${summary.failed} failed to parse, `
    + `${summary.skipped} skipped in ${(summary.timingsMs.total / 1000).toFixed(2)}s -> ${summary.outDir}`
    + (summary.precise ? `; checker: ${summary.precise.sites} call sites in ${summary.precise.files} files (${summary.precise.checked} checked), ${summary.precise.added} links added, `
      + `${summary.precise.dropped} dropped, ${summary.precise.upgraded} confirmed (${(summary.precise.ms / 1000).toFixed(1)}s)` : '');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A git work tree whose top-level .gitignore does not name synaptic-out (a nested rule is missed: only a hint). */
function outputsUnignored(root: string): boolean {
  if (!existsSync(join(root, '.git'))) return false;
  let rules = '';
  try {
    rules = readFileSync(join(root, '.gitignore'), 'utf8');
  } catch {
    // no .gitignore: nothing is ignored
  }
  return !rules.split(/\r?\n/).some((line) => /^\/?synaptic-out\/?(?:\*\*?)?\s*$/.test(line.trim()));
}

/** What to do after the first extract of a folder. */
function nextStep(summary: ExtractSummary): string {
  const ignore = outputsUnignored(summary.root) ? ' Add synaptic-out/ to .gitignore: it is rebuilt from the sources.' : '';
  const run = synapticCommand();
  return `next: \`${run} install claude\` (or \`codex\`) in ${summary.root} registers the MCP server with your agent; `
    + `\`${run} serve\` runs it by hand, \`${run} explore\` opens the graph in a browser, and \`${run} update\` `
    + `refreshes the outputs after edits.${ignore}\n`;
}
