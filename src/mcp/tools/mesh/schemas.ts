import { z } from 'zod';
import type { AgentRecord, MessageRecord, WorkerRecord, WorkItem } from '../../../mesh/index.ts';

/** Shapes of mesh results, shared by the tools' output schemas (snake_case on the wire). */
export const messageSchema = z.object({
  id: z.number().int(),
  from: z.string(),
  kind: z.enum(['direct', 'channel', 'status', 'worker']),
  channel: z.string().optional(),
  body: z.string(),
  created: z.number().int(),
  redelivered: z.literal(true).optional(),
});

export const workSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  posted_by: z.string(),
  state: z.enum(['open', 'claimed', 'done']),
  claimed_by: z.string().optional(),
  note: z.string().optional(),
});

export const workerSchema = z.object({
  id: z.number().int(),
  worker: z.string(),
  owner: z.string(),
  state: z.enum(['running', 'exited', 'failed', 'timed-out', 'stopped']),
  exit_code: z.number().int().nullable(),
  log: z.string(),
  limit_s: z.number(),
});

export function messageOut(m: MessageRecord): z.infer<typeof messageSchema> {
  return { id: m.id, from: m.from, kind: m.kind, ...(m.channel ? { channel: m.channel } : {}), body: m.body, created: m.created, ...(m.redelivered ? { redelivered: true as const } : {}) };
}

export function workOut(w: WorkItem): z.infer<typeof workSchema> {
  return { id: w.id, title: w.title, body: w.body, posted_by: w.postedBy, state: w.state, ...(w.claimedBy ? { claimed_by: w.claimedBy } : {}), ...(w.note ? { note: w.note } : {}) };
}

export function workerOut(w: WorkerRecord): z.infer<typeof workerSchema> {
  return { id: w.id, worker: w.worker, owner: w.owner, state: w.state, exit_code: w.exitCode, log: w.log, limit_s: w.limitMs / 1000 };
}

export function agentOut(a: AgentRecord): { name: string; role: string; state: string; detail: string; since: number } {
  return { name: a.name, role: a.role, state: a.state, detail: a.detail, since: a.changed };
}
