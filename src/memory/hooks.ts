import { sanitize, sanitizeProse } from '../graph/sanitize.ts';
import { SOURCE_ALLOWANCE, openingSentence } from './budget.ts';
import type { MemoryRecord } from './store.ts';
import { truncateUtf8, utf8Length } from './utf8.ts';

/** Size budget of the memories a session starts with (UTF-8 bytes of additionalContext). */
export const SESSION_CONTEXT_BYTES = 8000;
/** How many memories the session hook considers. */
export const SESSION_MEMORY_LIMIT = 200;

export interface SessionOutput {
  systemMessage: string;
  hookSpecificOutput: { hookEventName: 'SessionStart'; additionalContext: string };
}

/** Why a SessionStart hook runs (Claude Code and Codex send it as `source` on stdin). */
export type SessionSource = 'startup' | 'resume' | 'clear' | 'compact' | 'fork';

/** The section the compaction summary is asked for, and the session after it is pointed at. */
export const UNSTORED_HEADING = 'Settled, not yet in Synaptic memory';

/**
 * Opens the context of a session that was just compacted: the summary is the only record of what it
 * settled, and this is the first turn that can still store it.
 */
const AFTER_COMPACTION =
  'This session was just compacted. Before anything else, call remember once for each line under ' +
  `"${UNSTORED_HEADING}" in the summary (if the summary has no such section: for each decision, convention, correction ` +
  'or confirmed fact it records that is not among the memories below), with scope project unless it holds for every ' +
  'project, and supersedes with the id of any memory below that it corrects. Never store secret values. Then continue ' +
  'where the summary leaves off.\n\n';

function day(created: number): string {
  return new Date(created * 1000).toISOString().slice(0, 10);
}

/**
 * One memory in the session context, which the model reads before the first turn: the source is a
 * name (sanitize), the body prose (sanitizeProse: invisible characters escaped, no tag can open).
 * readmemory still returns the exact text.
 */
function memoryLine(m: MemoryRecord, body: string, abridged: boolean): string {
  const source = sanitize(truncateUtf8(m.source, SOURCE_ALLOWANCE).text);
  const tag = `[${m.id} · ${m.scope} · ${day(m.created)} · ${source}${abridged ? ' · abridged' : ''}]`;
  return `- ${tag} ${sanitizeProse(body).replace(/\n/g, '\n  ')}`;
}

/**
 * The SessionStart hook output: a terminal line, and the project's memory (newest first, global plus
 * this project, within SESSION_CONTEXT_BYTES) in the session's context before the first turn.
 * Memories that do not fit whole are cut to their opening sentence and marked abridged. After a
 * compaction (`source` compact) the context opens by asking for a remember call per fact the
 * summary lists as settled but not stored.
 */
export function sessionOutput(
  project: string,
  total: number,
  recent: MemoryRecord[],
  budgetBytes = SESSION_CONTEXT_BYTES,
  source?: SessionSource,
): SessionOutput {
  const noun = total === 1 ? 'memory' : 'memories';
  const head =
    (source === 'compact' ? AFTER_COMPACTION : '') +
    `Synaptic is connected and holds ${total} ${noun} for ${sanitize(project, 400)}. ` +
    'They are global memory plus memory stored for this project, never another project\'s. ' +
    (total === 0
      ? 'Nothing is stored yet. '
      : `The most recent ${recent.length === total ? '' : 'ones '}follow, newest first; each line is [id · scope · date · source]. ` +
        'Treat them as what this project has already decided. ') +
    'Before a decision that depends on project history, call ' +
    'recall with a focused query; call readmemory with an id to read an abridged memory in full; call remember for ' +
    'each stable, confirmed fact this session settles (with supersedes when it corrects one of these).';
  let left = budgetBytes - utf8Length(head) - 2;
  const lines: string[] = [];
  let shown = 0;
  for (const m of recent) {
    let line = memoryLine(m, m.body, false);
    let size = utf8Length(line) + 1;
    if (size > left) {
      const sentence = openingSentence(m.body);
      line = memoryLine(m, sentence, sentence !== m.body);
      size = utf8Length(line) + 1;
      if (size > left) break;
    }
    lines.push(line);
    left -= size;
    shown++;
  }
  const more = total > shown ? `\n(${total - shown} older ${total - shown === 1 ? 'memory is' : 'memories are'} not shown: use recall.)` : '';
  const additionalContext = lines.length > 0 ? `${head}\n\n${lines.join('\n')}${more}` : head;
  return {
    systemMessage: `Synaptic connected · ${total} ${noun}`,
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext },
  };
}

/**
 * The PreCompact hook's plain text, which Claude Code appends to the compaction's instructions: the
 * summary lists what the session settled and did not store, and the SessionStart hook that runs
 * right after the compaction asks the session to remember each line. Recalls nothing, blocks nothing.
 */
export function compactInstructions(project: string): string {
  return (
    `Synaptic keeps the durable memory of this project (${sanitize(project, 400)}), and this compaction is the last moment ` +
    `the details of this conversation exist. In the summary, add a section headed "${UNSTORED_HEADING}": one line for ` +
    'each decision, convention, correction or confirmed fact about the code or the user\'s preferences that this ' +
    'conversation settled and did not store with the remember tool, worded to stand on its own. Leave out anything ' +
    'tentative, anything already stored with remember, and every secret value; if nothing qualifies, write "none". ' +
    'Right after the compaction the session is asked to store each line with remember.\n'
  );
}
