import { truncateUtf8, utf8Length } from './utf8.ts';

/** Response sizes. `lean` keeps an agent's context small; `full` trades context for completeness. */
export type Budget = 'lean' | 'full';

export interface BudgetLimits {
  /** Total UTF-8 bytes of memory bodies one recall may return. */
  recallBytes: number;
  /** UTF-8 bytes of body one readmemory page may return. */
  pageBytes: number;
}

export const BUDGETS: Readonly<Record<Budget, BudgetLimits>> = {
  lean: { recallBytes: 3000, pageBytes: 4096 },
  full: { recallBytes: 16000, pageBytes: 16384 },
};

/** The source label's own allowance, separate from the body budget. */
export const SOURCE_ALLOWANCE = 240;
/** The longest opening sentence an abridged memory carries. */
export const SENTENCE_MAX_BYTES = 400;

/**
 * The opening sentence of `body`: up to the first sentence terminator followed by whitespace or the
 * end, or the first line break, capped at SENTENCE_MAX_BYTES on a character boundary.
 */
export function openingSentence(body: string): string {
  const m = /[.!?。！？](?=\s|$)|\n/u.exec(body);
  const sentence = m ? body.slice(0, m.index + (m[0] === '\n' ? 0 : m[0].length)) : body;
  return truncateUtf8(sentence.trimEnd(), SENTENCE_MAX_BYTES).text;
}

export interface Fitted {
  body: string;
  abridged: boolean;
}

/**
 * Fits ranked bodies into `budgetBytes`: whole while they fit, else the opening sentence (marked
 * abridged); stops at the first memory whose opening sentence no longer fits. The first memory is
 * always returned, abridged if need be, so a recall that matched something never comes back empty.
 */
export function fitBodies(bodies: string[], budgetBytes: number): Fitted[] {
  const out: Fitted[] = [];
  let left = budgetBytes;
  for (const body of bodies) {
    const size = utf8Length(body);
    if (size <= left) {
      out.push({ body, abridged: false });
      left -= size;
      continue;
    }
    let sentence = openingSentence(body);
    let sentenceSize = utf8Length(sentence);
    if (sentenceSize > left) {
      if (out.length > 0) break;
      sentence = truncateUtf8(sentence, Math.max(0, left)).text;
      sentenceSize = utf8Length(sentence);
    }
    out.push({ body: sentence, abridged: sentence !== body });
    left -= sentenceSize;
  }
  return out;
}
