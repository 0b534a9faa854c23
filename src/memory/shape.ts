/**
 * What remember, recall and readmemory check and return, shared by every backend so their
 * semantics cannot drift: input validation, the supersede rules, and the response shapes.
 */
import { createHash } from 'node:crypto';
import { BUDGETS, SOURCE_ALLOWANCE, fitBodies, type Budget } from './budget.ts';
import { refuseCredentials } from './credentials.ts';
import {
  DEFAULT_RECALL_LIMIT,
  MAX_BODY_BYTES,
  MAX_RECALL_LIMIT,
  MAX_SOURCE_BYTES,
  STATES,
  type MemoryRecord,
  type ReadResult,
  type RecallResult,
  type RecalledMemory,
  type RememberInput,
  type Scope,
  type StoredRow,
} from './types.ts';
import { bytePage, truncateUtf8, utf8Length } from './utf8.ts';

/** 48 bits of the body's SHA-256, to answer a repeated remember with the memory already stored. */
export function digestOf(body: string): number {
  return createHash('sha256').update(body).digest().readUIntBE(0, 6);
}

/**
 * A remember call's checked input. Throws TypeError/RangeError for an empty or oversized body or a
 * bad scope, CredentialRefusedError for a credential in the content, source or project.
 */
export function checkRemember(input: RememberInput): { body: string; source: string; supersedes: number[]; digest: number } {
  const body = input.content;
  if (typeof body !== 'string' || body.trim() === '') throw new TypeError('Cannot remember: content is empty; pass the fact to store');
  if (utf8Length(body) > MAX_BODY_BYTES) {
    throw new RangeError(`Cannot remember: content is ${utf8Length(body)} bytes, over the ${MAX_BODY_BYTES}-byte limit; store a summary and keep the document in the repository`);
  }
  refuseCredentials('remember', { content: body, source: input.source, project: input.project });
  const source = truncateUtf8(input.source.trim() || 'agent', MAX_SOURCE_BYTES).text;
  if (input.scope !== 'global' && input.scope !== 'project') {
    throw new TypeError(`Cannot remember: scope "${String(input.scope)}" is not global or project`);
  }
  return { body, source, supersedes: [...new Set(input.supersedes ?? [])], digest: digestOf(body) };
}

/** Throws when `id` cannot be superseded by a new `scope` memory of `project` (`row`: the stored memory, or undefined). */
export function checkSupersedable(id: number, row: StoredRow | undefined, scope: Scope, project: string, sameProject: boolean): void {
  if (!Number.isSafeInteger(id) || id <= 0) throw new RangeError(`Cannot remember: supersedes id ${id} is not a memory id; nothing was stored`);
  if (!row || (row.scope === 'project' && !sameProject)) {
    throw new RangeError(`Cannot remember: memory ${id} does not exist in this scope (global or project ${project}); nothing was stored. Recall to find the id to supersede`);
  }
  if (row.scope !== scope) {
    throw new RangeError(
      `Cannot remember: memory ${id} is ${row.scope} memory and the new one is ${scope}; a memory can only supersede one of the same scope, so nothing was stored. Remember with scope ${row.scope} to replace it`,
    );
  }
  if (row.state === 1) {
    throw new RangeError(`Cannot remember: memory ${id} was already superseded by ${row.superseded_by}; nothing was stored. Supersede ${row.superseded_by} instead`);
  }
  if (row.state === 2) throw new RangeError(`Cannot remember: memory ${id} was forgotten by the owner; nothing was stored`);
}

export function recallLimit(limit: number | undefined): number {
  return Math.min(MAX_RECALL_LIMIT, Math.max(1, Math.floor(limit ?? DEFAULT_RECALL_LIMIT)));
}

/** The recall answer for rows in rank order, bodies fitted to the budget. */
export function shapeRecall(rows: StoredRow[], budget: Budget): RecallResult {
  const fitted = fitBodies(
    rows.map((r) => r.body),
    BUDGETS[budget].recallBytes,
  );
  const memories = fitted.map((f, i): RecalledMemory => {
    const r = rows[i]!;
    const m: RecalledMemory = { id: r.id, body: f.body, source: truncateUtf8(r.source, SOURCE_ALLOWANCE).text, scope: r.scope, project: r.project, created: r.created };
    if (f.abridged) m.abridged = true;
    return m;
  });
  return { optimization: budget, memories };
}

/** One exact byte page of a visible row (null: missing, not live or out of scope). Throws RangeError for a bad offset. */
export function shapePage(row: StoredRow | null, offset: number, budget: Budget): ReadResult {
  if (!row) return { optimization: budget, memory: null };
  let page;
  try {
    page = bytePage(row.body, offset, BUDGETS[budget].pageBytes);
  } catch (err) {
    throw new RangeError((err as Error).message.replace('Cannot read page', `Cannot read memory ${row.id}`));
  }
  const source = truncateUtf8(row.source, SOURCE_ALLOWANCE);
  return {
    optimization: budget,
    memory: {
      id: row.id,
      body: page.text,
      source: source.text,
      sourceabridged: source.truncated,
      scope: row.scope,
      project: row.project,
      created: row.created,
      offset,
      next: page.next,
      total: page.total,
    },
  };
}

export function toRecord(r: StoredRow): MemoryRecord {
  return {
    id: r.id,
    body: r.body,
    source: r.source,
    scope: r.scope,
    project: r.project,
    created: r.created,
    state: STATES[r.state]!,
    supersededBy: r.superseded_by,
    changed: r.changed,
  };
}

/** The history `show` prints: what `id` replaced (transitively) and what replaced it, newest first. */
export function historyOf(
  row: StoredRow,
  replacedBy: (id: number) => number[],
  get: (id: number) => StoredRow | undefined,
): MemoryRecord[] {
  const history: MemoryRecord[] = [];
  const seen = new Set<number>([row.id]);
  const queue = [row.id];
  while (queue.length > 0) {
    for (const id of replacedBy(queue.shift()!)) {
      if (seen.has(id)) continue;
      seen.add(id);
      queue.push(id);
      history.push(toRecord(get(id)!));
    }
  }
  for (let next = row.superseded_by; next !== null && !seen.has(next); ) {
    seen.add(next);
    const r = get(next);
    if (!r) break;
    history.push(toRecord(r));
    next = r.superseded_by;
  }
  return history.sort((a, b) => b.id - a.id);
}
