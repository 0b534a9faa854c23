/**
 * The readiness audit's report (spec: readiness_audit, its structuredContent is the ReadinessReport).
 * Browser-safe types shared by the rules, the engine and the two front ends (MCP tool, CLI).
 */
import type { NodeId } from '../../graph/model.ts';

export const READINESS_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type ReadinessSeverity = (typeof READINESS_SEVERITIES)[number];

/**
 * Rule profiles: `auto` picks each file's language rules, `generic` runs only the language-neutral
 * text rules, a language name runs auto on that language's files only (and its ecosystem's metadata).
 */
export const READINESS_PROFILES = ['auto', 'generic', 'typescript', 'python', 'rust', 'go'] as const;
export type ReadinessProfile = (typeof READINESS_PROFILES)[number];

export type ReadinessCategory = 'sentinel' | 'stub' | 'placeholder' | 'generated' | 'metadata' | 'graph';

/** How far the flagged code is reached: the reverse reach of its node(s) (spec: impact). */
export interface Impact {
  /** Non-test nodes that depend on it (reverse reach along impact edges). */
  dependents: number;
  /** Entry points among those dependents (an exported API, a main, an entry file, a route handler). */
  entry_points: number;
  /** The flagged symbol is itself an entry point (public API). */
  is_entry: boolean;
  /** The nearest entry point that reaches it, when one does. */
  via?: string;
}

export interface ReadinessFinding {
  rule_id: string;
  severity: ReadinessSeverity;
  category: ReadinessCategory;
  /** The community (its folder) or, for project metadata, `project`. */
  subsystem: string;
  title: string;
  detail: string;
  /** `file:L12`, or a project file for metadata findings. */
  location: string;
  /** Graph node ids (stable keys) the finding is about. */
  node_ids: string[];
  /** The source lines or facts it rests on. */
  evidence: string[];
  remediation: string;
  confidence: number;
  impact: Impact | null;
}

export interface SkippedCheck {
  check: string;
  reason: string;
}

export interface ReadinessGroup {
  subsystem: string;
  total: number;
  counts_by_severity: Partial<Record<ReadinessSeverity, number>>;
}

export interface ReadinessReport {
  version: number;
  summary: string;
  counts_by_severity: Record<ReadinessSeverity, number>;
  groups: ReadinessGroup[];
  findings: ReadinessFinding[];
  skipped: SkippedCheck[];
}

/** A finding before ranking: the rule names the node it is about; the engine adds subsystem and impact. */
export interface RawFinding {
  rule_id: string;
  /** Severity when the code is not reached from an entry point (the engine may raise it). */
  severity: ReadinessSeverity;
  category: ReadinessCategory;
  title: string;
  detail: string;
  location: string;
  /** The node the finding is about (its impact is computed from it); none for project-level findings. */
  node?: NodeId;
  evidence: string[];
  remediation: string;
  confidence: number;
  /**
   * How reach changes severity: `sentinel` (critical when an entry point reaches it through a caller,
   * high when it is public API), `reachable` (dropped unless an entry point reaches it), `callers`
   * (one level lower without a non-test dependent). Absent: severity as given.
   */
  reach?: 'sentinel' | 'reachable' | 'callers';
  /** Levels to lower the severity after reach (a sentinel in one branch, or in a base class's default). */
  lowerBy?: number;
  /** A subsystem the rule knows better than the node's community (generated folders, project files). */
  subsystem?: string;
}

export function severityRank(s: ReadinessSeverity): number {
  return READINESS_SEVERITIES.indexOf(s);
}

export function lower(s: ReadinessSeverity): ReadinessSeverity {
  return READINESS_SEVERITIES[Math.min(READINESS_SEVERITIES.length - 1, severityRank(s) + 1)]!;
}
