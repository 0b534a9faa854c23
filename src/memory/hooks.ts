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

export interface CompactOutput {
  hookSpecificOutput: { hookEventName: 'PreCompact'; additionalContext: string };
}

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
 * Memories that do not fit whole are cut to their opening sentence and marked abridged.
 */
export function sessionOutput(project: string, total: number, recent: MemoryRecord[], budgetBytes = SESSION_CONTEXT_BYTES): SessionOutput {
  const noun = total === 1 ? 'memory' : 'memories';
  const head =
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

/** The PreCompact hook output: asks for a remember call per settled fact; recalls nothing, blocks nothing. */
export function compactOutput(project: string): CompactOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreCompact',
      additionalContext:
        "Synaptic holds this project's durable memory, and this session is about to be compacted: whatever it " +
        `worked out and did not write down stops existing now. Before continuing, list what this session (project ${sanitize(project, 400)}) ` +
        'settled that is not already stored (decisions, conventions, corrections, confirmed facts about the code or ' +
        'the user\'s preferences) and call remember once for each, with scope project unless it holds for every ' +
        'project, and supersedes with the id of any memory it corrects. Skip anything tentative, anything already ' +
        'remembered, and never include secret values. Do not recall memory for this: the compaction is reclaiming context.',
    },
  };
}
