import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { SHARD_FILE } from '../../graph/store/names.ts';
import { extractorVersion } from '../identity.node.ts';
import type { ExtractSummary } from '../pipeline.node.ts';
import type { Workspace, WorkspaceMember } from './members.node.ts';
import {
  memberOutDir, readWorkspaceFiles, sourceHash, writeWorkspaceFiles, WORKSPACE_FORMAT,
  type GlobalManifest, type ManifestMember, type WorkspaceState,
} from './state.node.ts';

/**
 * `workspace build` / `workspace update`: each member is extracted by its own `synaptic update`
 * child process (incremental, into the member's own synaptic-out), up to `jobs` at a time, so
 * members link and rank on separate cores and one member's failure cannot take down the rest.
 * Every child is awaited: none outlives the command.
 */

export interface BuildOptions {
  /** The command that runs `synaptic` (node, its flags and the CLI entry). */
  cli: string[];
  /** Where global-manifest.json and workspace-state.json go. */
  outDir: string;
  /** Extract only members whose source_hash changed (or that have no outputs): `workspace update`. */
  onlyChanged: boolean;
  /** Members extracted at once; default: one per core. */
  jobs?: number;
  maxFileSize?: number;
  /** A member finished (for the per-member line). */
  onMember?: (result: MemberResult) => void;
}

export interface MemberResult {
  tag: string;
  root: string;
  /** `extracted` ran now; `unchanged`: same source_hash as the last extraction (update only); `failed`: reported and skipped. */
  status: 'extracted' | 'unchanged' | 'failed';
  source_hash: string;
  /** Why it was (not) extracted. */
  reason: string;
  ms: number;
  summary?: Pick<ExtractSummary, 'mode' | 'files' | 'parsed' | 'reused' | 'nodes' | 'links' | 'communities' | 'outDir'> & { store?: { path: string; mode: string; generation?: number; reason?: string } };
  error?: string;
}

export interface BuildResult {
  workspace_root: string;
  out_dir: string;
  generation: number;
  members: MemberResult[];
  extracted: number;
  unchanged: number;
  failed: number;
  ms: number;
}

export async function buildWorkspace(ws: Workspace, options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  mkdirSync(options.outDir, { recursive: true });
  const previous = readWorkspaceFiles(options.outDir);
  const version = extractorVersion();
  const sameExtractor = previous.state?.extractor_version === version;
  const plans = ws.members.map((member) => {
    const t0 = performance.now();
    const hash = sourceHash(member.root, options.maxFileSize);
    const before = previous.state?.repos[member.tag]?.source_hash;
    const hasGraph = existsSync(join(memberOutDir(member), 'graph.json'));
    const hasShard = existsSync(join(memberOutDir(member), SHARD_FILE));
    const reason = !options.onlyChanged ? 'build'
      : !before ? 'not extracted before'
        : !hasGraph ? 'its graph.json is missing'
          : !hasShard ? 'its shard store is missing'
            : !sameExtractor ? `extractor changed (${previous.state?.extractor_version} -> ${version})`
              : before !== hash ? 'sources changed' : '';
    return { member, hash, reason, hashMs: performance.now() - t0 };
  });
  const results = new Array<MemberResult>(plans.length);
  const todo = plans.flatMap((p, i) => (p.reason ? [i] : []));
  for (const [i, p] of plans.entries()) {
    if (!p.reason) {
      results[i] = { tag: p.member.tag, root: p.member.root, status: 'unchanged', source_hash: p.hash, reason: 'same source_hash', ms: Math.round(p.hashMs) };
      options.onMember?.(results[i]);
    }
  }
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), todo.length || 1));
  let next = 0;
  await Promise.all(Array.from({ length: jobs }, async () => {
    while (next < todo.length) {
      const i = todo[next++]!;
      const p = plans[i]!;
      results[i] = await extractMember(p.member, p.hash, p.reason, options);
      options.onMember?.(results[i]);
    }
  }));

  const extracted = results.filter((r) => r.status === 'extracted').length;
  const failed = results.filter((r) => r.status === 'failed').length;
  const generation = (previous.manifest?.generation ?? 0) + (extracted || failed || !previous.manifest ? 1 : 0);
  const now = new Date().toISOString();
  const previousMembers = new Map((previous.manifest?.members ?? []).map((m) => [m.tag, m]));
  const manifest: GlobalManifest = {
    format: WORKSPACE_FORMAT, generation, extractor_version: version, workspace_root: ws.root, written_at: now,
    members: results.map((r, i) => manifestMember(ws.members[i]!, r, previousMembers.get(r.tag))),
  };
  const state: WorkspaceState = { format: WORKSPACE_FORMAT, extractor_version: version, repos: {} };
  for (const r of results) {
    // A failed member keeps no fingerprint, so the next update tries it again.
    if (r.status === 'failed') continue;
    state.repos[r.tag] = { source_hash: r.source_hash, extracted_at: r.status === 'extracted' ? now : previous.state?.repos[r.tag]?.extracted_at ?? now };
  }
  writeWorkspaceFiles(options.outDir, manifest, state);
  return { workspace_root: ws.root, out_dir: options.outDir, generation, members: results, extracted, unchanged: results.length - extracted - failed, failed, ms: Math.round(performance.now() - started) };
}

function manifestMember(member: WorkspaceMember, r: MemberResult, before: ManifestMember | undefined): ManifestMember {
  const base = { tag: member.tag, source_root: member.root, path: member.path, out_dir: memberOutDir(member) };
  if (r.status === 'failed') return { ...base, status: 'failed', error: r.error ?? 'failed' };
  const counts = r.summary ? { files: r.summary.files, nodes: r.summary.nodes, links: r.summary.links }
    : before?.status === 'ok' ? { ...(before.files !== undefined ? { files: before.files } : {}), ...(before.nodes !== undefined ? { nodes: before.nodes } : {}), ...(before.links !== undefined ? { links: before.links } : {}) } : {};
  // The shard each member's update wrote (or kept: 'fresh' has no new generation), else the last build's.
  const store = r.summary?.store;
  const shard = store && store.mode !== 'failed' && store.mode !== 'removed'
    ? { shard: store.path, shard_generation: store.generation ?? before?.shard_generation ?? 1 }
    : !r.summary && before?.shard ? { shard: before.shard, ...(before.shard_generation !== undefined ? { shard_generation: before.shard_generation } : {}) } : {};
  return { ...base, status: 'ok', ...counts, ...shard };
}

/** One member's `synaptic update <root> --json --no-watcher --store` (its shard written or kept current), in a child process. */
function extractMember(member: WorkspaceMember, hash: string, reason: string, options: BuildOptions): Promise<MemberResult> {
  const t0 = performance.now();
  const [cmd, ...pre] = options.cli;
  const args = [...pre, 'update', member.root, '--json', '--no-watcher', '--store', ...(options.maxFileSize !== undefined ? ['--max-file-size', String(options.maxFileSize)] : [])];
  return new Promise((resolve) => {
    const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const done = (error: string | null, summary?: MemberResult['summary']): void => {
      const ms = Math.round(performance.now() - t0);
      resolve(error === null
        ? { tag: member.tag, root: member.root, status: 'extracted', source_hash: hash, reason, ms, summary: summary! }
        : { tag: member.tag, root: member.root, status: 'failed', source_hash: hash, reason, ms, error });
    };
    child.on('error', (err) => done(`could not start synaptic: ${err.message}`));
    child.on('close', (code, signal) => {
      if (code !== 0) {
        const why = stderr.trim().split('\n').filter(Boolean).at(-1) ?? (signal ? `killed by ${signal}` : `exit code ${code}`);
        return done(why.replace(/^synaptic update: /, ''));
      }
      try {
        const s = JSON.parse(stdout.trim().split('\n').at(-1)!) as ExtractSummary;
        done(null, { mode: s.mode, files: s.files, parsed: s.parsed, reused: s.reused, nodes: s.nodes, links: s.links, communities: s.communities, outDir: s.outDir, ...(s.store ? { store: s.store } : {}) });
      } catch {
        done(`unreadable summary from synaptic update: ${stdout.slice(0, 200)}`);
      }
    });
  });
}
