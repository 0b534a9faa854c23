/**
 * Recall@5 of query_graph on natural-language questions (#17.4).
 *
 *   node --import tsx bench/accuracy/questions.ts [--graph repo=path/to/graph.json ...] [--show]
 *
 * Questions and the symbols a good answer contains are in questions/questions.json (written before the
 * ranking was tuned). A graph defaults to /tmp/corpus/<repo>/synaptic-out/graph.json. Per question,
 * recall@5 = expected symbols among the top 5 NODE lines / min(expected, 5); the score is the mean.
 * An expected entry with '#' is a node id, else a (case-sensitive) label.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Core } from '../../src/core/index.ts';
import { parseGraphBytes } from '../../src/graph/load.node.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';

interface Question {
  repo: string;
  q: string;
  expect: string[];
}

const K = 5;

function graphPaths(args: string[]): Map<string, string> {
  const paths = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--graph') continue;
    const [repo, path] = (args[++i] ?? '').split('=');
    if (!repo || !path) throw new TypeError(`Cannot read --graph '${args[i] ?? ''}': expected repo=path/to/graph.json`);
    paths.set(repo, path);
  }
  return paths;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const show = args.includes('--show');
  const here = dirname(fileURLToPath(import.meta.url));
  const questions = (JSON.parse(readFileSync(join(here, 'questions/questions.json'), 'utf8')) as { questions: Question[] }).questions;
  const paths = graphPaths(args);
  const traversal = coreTraversal(await Core.load());
  const engines = new Map<string, QueryEngine>();
  const perRepo = new Map<string, { sum: number; n: number }>();
  let total = 0;
  for (const item of questions) {
    let engine = engines.get(item.repo);
    if (!engine) {
      const path = paths.get(item.repo) ?? `/tmp/corpus/${item.repo}/synaptic-out/graph.json`;
      engine = new QueryEngine(parseGraphBytes(readFileSync(path), path), traversal);
      engines.set(item.repo, engine);
    }
    const ix = engine.ix;
    const top = engine.rank(item.q).nodes.slice(0, K).map((h) => ({ id: ix.node(h.node).id, label: ix.label(h.node) }));
    const found = item.expect.filter((e) => top.some((t) => (e.includes('#') ? t.id === e : t.label === e)));
    const recall = found.length / Math.min(item.expect.length, K);
    total += recall;
    const r = perRepo.get(item.repo) ?? { sum: 0, n: 0 };
    r.sum += recall;
    r.n++;
    perRepo.set(item.repo, r);
    if (show || recall < 1) {
      console.log(`${recall.toFixed(2)}  [${item.repo}] ${item.q}`);
      if (recall < 1) console.log(`      missing: ${item.expect.filter((e) => !found.includes(e)).join(', ')}`);
      if (show || recall < 1) for (const t of top) console.log(`      ${t.id}`);
    }
  }
  console.log('');
  for (const [repo, r] of perRepo) console.log(`${repo.padEnd(10)} recall@${K} ${(r.sum / r.n).toFixed(3)} (${r.n} questions)`);
  console.log(`${'all'.padEnd(10)} recall@${K} ${(total / questions.length).toFixed(3)} (${questions.length} questions)`);
}

await main();
