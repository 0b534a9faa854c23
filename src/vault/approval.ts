/**
 * Who may grant secrets: a person at a terminal, never the agent the secrets are kept from. Trusting a
 * scope file, storing a secret or holding one for another folder hands values to every command run
 * there, so these actions need a typed confirmation on a terminal and are refused in an AI agent's
 * session (its commands run without a terminal, with marker variables the agents document) unless
 * the person passes HUMAN_FLAG.
 */

import type { Env } from './paths.ts';

/** The flag a person passes to approve without a terminal (a script) or despite a marker variable. */
export const HUMAN_FLAG = '--i-am-human';

/** A variable that is set, or set to exactly this value. */
type Marker = string | readonly [name: string, value: string];

/**
 * Variables coding agents set in the commands they run. Every entry of a list must match. Variables a
 * person's own shell sets too are left out (CODEX_HOME, a bare CURSOR_TRACE_ID in Cursor's terminal,
 * TERM_PROGRAM alone).
 */
const AGENTS: ReadonlyArray<{ agent: string; all: readonly Marker[] }> = [
  { agent: 'Claude Code', all: ['CLAUDECODE'] }, // "1" in every Bash tool command since v0.2.47
  { agent: 'Claude Code', all: ['CLAUDE_CODE_ENTRYPOINT'] }, // cli, sdk-ts, sdk-py, ...
  { agent: 'Codex', all: ['CODEX_SANDBOX'] }, // "seatbelt" under the macOS sandbox
  { agent: 'Codex', all: ['CODEX_SANDBOX_NETWORK_DISABLED'] }, // "1" in sandboxed shell commands
  { agent: 'Codex', all: ['CODEX_THREAD_ID'] },
  { agent: 'Codex', all: ['CODEX_CI'] },
  { agent: 'Codex', all: ['CODEX_MANAGED_BY_NPM'] },
  { agent: 'Cursor', all: ['CURSOR_AGENT'] },
  { agent: 'Cursor', all: ['CURSOR_TRACE_ID', ['PAGER', 'head -n 10000 | cat']] },
  { agent: 'Gemini CLI', all: ['GEMINI_CLI'] },
  { agent: 'Qwen Code', all: ['QWEN_CODE'] },
  { agent: 'Amp', all: ['AMP_CURRENT_THREAD_ID'] },
  { agent: 'Amp', all: [['AGENT', 'amp']] },
  { agent: 'Auggie', all: ['AUGMENT_AGENT'] },
  { agent: 'OpenCode', all: ['OPENCODE_CLIENT'] },
  { agent: 'OpenCode', all: ['OPENCODE_BIN_PATH'] },
  { agent: 'Replit Assistant', all: ['REPL_ID', ['REPLIT_MODE', 'assistant']] },
  { agent: 'GitHub Copilot (VS Code)', all: [['TERM_PROGRAM', 'vscode'], ['GIT_PAGER', 'cat']] },
  { agent: 'Zed agent', all: [['TERM_PROGRAM', 'zed'], ['PAGER', 'cat']] },
  { agent: 'an AI agent', all: ['AI_AGENT'] }, // the generic marker some agents set
];

const matches = (env: Env, m: Marker): boolean => (typeof m === 'string' ? (env[m] ?? '') !== '' : env[m[0]] === m[1]);
const describe = (m: Marker): string => (typeof m === 'string' ? `${m} is set` : `${m[0]}=${m[1]}`);

/** The agent whose session `env` is, as "Claude Code (CLAUDECODE is set)", or null. */
export function agentSession(env: Env): string | null {
  const hit = AGENTS.find((a) => a.all.every((m) => matches(env, m)));
  return hit ? `${hit.agent} (${hit.all.map(describe).join(', ')})` : null;
}

/** Where a grant request comes from. */
export interface Requester {
  /** Standard input is a terminal (a person can answer a prompt). */
  terminal: boolean;
  env: Env;
  /** The person passed HUMAN_FLAG. */
  human: boolean;
}

/**
 * Why `action` (e.g. "trust /p/.synaptic.yaml") may not run for this requester, or null when it may
 * run: at once with HUMAN_FLAG, else after a typed confirmation on the terminal.
 */
export function grantRefusal(action: string, what: string, r: Requester): string | null {
  if (r.human) return null;
  const agent = agentSession(r.env);
  const why = agent
    ? `this runs inside ${agent}, and an agent must not grant itself secrets`
    : 'standard input is not a terminal, so no person can confirm it';
  if (!agent && r.terminal) return null;
  return (
    `Cannot ${action}: ${why}. ${what} A person approves this: run the command yourself in a terminal and answer the prompt, ` +
    `or pass ${HUMAN_FLAG} if you are a person running it from a script (an agent must never pass it). Nothing was changed`
  );
}

/** True for the answer that confirms: "yes", in any case, with surrounding blanks. */
export function isYes(answer: string): boolean {
  return answer.trim().toLowerCase() === 'yes';
}
