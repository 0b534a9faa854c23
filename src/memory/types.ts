import type { Budget } from './budget.ts';

export type Scope = 'global' | 'project';
export type MemoryState = 'live' | 'superseded' | 'forgotten';

/** Largest body a memory may hold (UTF-8 bytes). */
export const MAX_BODY_BYTES = 256 * 1024;
/** Largest source label stored (UTF-8 bytes); output shows at most SOURCE_ALLOWANCE of it. */
export const MAX_SOURCE_BYTES = 4096;
export const DEFAULT_RECALL_LIMIT = 8;
export const MAX_RECALL_LIMIT = 50;

/** States by their stored number: 0 live, 1 superseded, 2 forgotten. */
export const STATES: readonly MemoryState[] = ['live', 'superseded', 'forgotten'];

export interface RememberInput {
  content: string;
  source: string;
  scope: Scope;
  /** Resolved project path (see resolveProject). */
  project: string;
  supersedes?: number[];
}

export interface RememberResult {
  id: number;
  stored: boolean;
  superseded: number[];
}

export interface RecalledMemory {
  id: number;
  body: string;
  source: string;
  scope: Scope;
  project: string;
  created: number;
  abridged?: true;
}

export interface RecallResult {
  optimization: Budget;
  memories: RecalledMemory[];
}

export interface RecallInput {
  query?: string;
  limit?: number;
  budget?: Budget;
  project: string;
}

export interface ReadInput {
  id: number;
  project: string;
  offset?: number;
  budget?: Budget;
}

export interface MemoryPage {
  id: number;
  body: string;
  source: string;
  sourceabridged: boolean;
  scope: Scope;
  project: string;
  created: number;
  offset: number;
  next: number | null;
  total: number;
}

export interface ReadResult {
  optimization: Budget;
  memory: MemoryPage | null;
}

/** A memory with its owner-facing metadata (CLI, export). */
export interface MemoryRecord {
  id: number;
  body: string;
  source: string;
  scope: Scope;
  project: string;
  created: number;
  state: MemoryState;
  supersededBy: number | null;
  changed: number;
}

/** A stored row as both backends read it (state as its number). */
export interface StoredRow {
  id: number;
  body: string;
  source: string;
  scope: Scope;
  project: string;
  created: number;
  state: number;
  superseded_by: number | null;
  changed: number;
}
