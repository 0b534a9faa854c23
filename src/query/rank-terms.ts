/**
 * What query_graph's ranking searches for and how a question weighs code tiers: the question's
 * terms (its words, their abbreviations and truncations, acronyms it spells out) and the score
 * factor of library, secondary and test code for it. Split from rank.ts, which scores the graph.
 */
import type { GraphIndex } from './graph-index.ts';
import { CODE_TIER } from './code-tier.ts';
import { spelledAcronyms, stem, tokenVariants } from './tokens.ts';

/** An abbreviation or expansion of a question word (`comp` for "completion"). */
const VARIANT_WEIGHT = 0.8;
/** A name word that is a truncation of a question word (`reg`/`exp` for "regular expressions"). */
const TRUNCATION_WEIGHT = 0.5;
/**
 * Score factor per code tier (library, secondary, test): a question about how the code works is
 * answered by the implementation first; tests and examples only when the question asks for them.
 */
const TIER_FACTOR = [1, 0.5, 0.3];

export interface Term {
  token: string;
  /** The question words it stands for (bit i: token i). */
  bits: number;
  weight: number;
  /** For an abbreviation or truncation: the question token it spells (one concept, one frequency). */
  of?: string;
}

/**
 * What the label postings are searched for: the question's tokens, their abbreviations or
 * expansions, and acronyms the question spells out when some label holds them (`streamSSE` for
 * "server-sent events", covering all three words).
 */
export function questionTerms(ix: GraphIndex, question: string, tokens: readonly string[]): Term[] {
  const bitOf = (token: string): number => {
    const i = tokens.indexOf(token);
    return i >= 0 && i < 31 ? 1 << i : 0;
  };
  const terms: Term[] = [];
  const seen = new Set(tokens);
  for (const token of tokens) {
    terms.push({ token, bits: bitOf(token), weight: 1 });
    for (const variant of tokenVariants(token)) {
      if (seen.has(variant)) continue;
      seen.add(variant);
      terms.push({ token: variant, bits: bitOf(token), weight: VARIANT_WEIGHT, of: token });
    }
    // Code shortens words by truncation (`param`, `expr`, `sig`): a name word of 3+ letters that
    // starts the question word and keeps at least 40% of it.
    for (let k = Math.max(3, Math.ceil(token.length * 0.4)); k <= token.length - 2; k++) {
      const prefix = token.slice(0, k);
      if (seen.has(prefix) || !ix.labelPostings.has(prefix)) continue;
      seen.add(prefix);
      terms.push({ token: prefix, bits: bitOf(token), weight: TRUNCATION_WEIGHT, of: token });
    }
  }
  for (const { acronym, words } of spelledAcronyms(question)) {
    if (seen.has(acronym) || !ix.labelPostings.has(acronym)) continue;
    seen.add(acronym);
    let bits = 0;
    for (const w of words) bits |= bitOf(stem(w));
    terms.push({ token: acronym, bits, weight: 1 });
  }
  return terms;
}

/** Does the question ask for a type's shape ("what type", "the interface of")? Not "typed" or "typing". */
export function asksForDeclarations(question: string): boolean {
  return /\b(types?|interfaces?|typedefs?|shapes?|signatures?)\b/i.test(question);
}

const ERROR_WORDS = new Set(['error', 'errors', 'exception', 'exceptions', 'fail', 'failure', 'failures', 'invalid', 'raise', 'throw', 'thrown'].map(stem));

/** Does the question ask about errors ("how are errors handled", "which exceptions are raised")? */
export function asksForErrors(tokens: readonly string[]): boolean {
  return tokens.some((t) => ERROR_WORDS.has(t));
}

/** Tier factors for a question: tests and examples rank as implementation when it asks about them. */
export function tierFactors(tokens: readonly string[]): readonly number[] {
  const asks = (...words: string[]) => words.some((w) => tokens.includes(stem(w)));
  return [
    TIER_FACTOR[CODE_TIER.library]!,
    asks('example', 'benchmark', 'bench', 'fixture', 'mock', 'generated') ? 1 : TIER_FACTOR[CODE_TIER.secondary]!,
    asks('test', 'spec', 'mock', 'fixture', 'coverage') ? 1 : TIER_FACTOR[CODE_TIER.test]!,
  ];
}
