/**
 * Exact token-budget cuts with the cl100k_base tokenizer (js-tiktoken). The encoder's rank table is
 * large, so it loads on first use and only when the fast path (text within budget*4 bytes) misses.
 */
import type { Tiktoken } from 'js-tiktoken/lite';

let encoder: Promise<Tiktoken> | undefined;

async function cl100k(): Promise<Tiktoken> {
  encoder ??= (async () => {
    const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]);
    return new Tiktoken(ranks.default);
  })();
  return encoder;
}

/** Count cl100k_base tokens of a text. */
export async function countTokens(text: string): Promise<number> {
  return (await cl100k()).encode(text).length;
}

/** A text laid out for a budget: head lines first, then lines ranked by how much they must survive a cut. */
export interface BudgetLayout {
  /** Shown first, whatever the cut. */
  head: string[];
  /** A shorter head, used when the full one leaves the must-keep lines no room. */
  shortHead?: string[];
  /**
   * The rest, in display order. A cut keeps rank 0 lines always (the first one shortened to fit if
   * it must), then rank 1 lines, then rank 2 (the default) in order, each while it fits.
   */
  lines: Array<{ text: string; rank?: 0 | 1 | 2 }>;
}

/**
 * Bound a text to `budget` cl100k_base tokens. Text within budget*4 UTF-8 bytes is returned as-is;
 * longer text is cut at the last whole line that fits, followed by a note saying how much was cut.
 * The first line always survives (cut inside when it alone is over budget).
 */
export async function cutToBudget(text: string, budget: number): Promise<{ text: string; truncated: boolean }> {
  return fitToBudget({ head: [], lines: text.split('\n').map((line, i) => ({ text: line, rank: i === 0 ? 0 : 2 })) }, budget);
}

/**
 * Bound a laid-out text to `budget` cl100k_base tokens (see BudgetLayout), followed by a note saying
 * how many lines were cut; the note and the head shorten when the budget is tight. Within budget*4
 * UTF-8 bytes the text is returned whole without tokenizing.
 */
export async function fitToBudget(layout: BudgetLayout, budget: number): Promise<{ text: string; truncated: boolean }> {
  const whole = [...layout.head, ...layout.lines.map((l) => l.text)].join('\n');
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so a short text needs no byte count.
  if (whole.length * 3 <= budget * 4 || (whole.length <= budget * 4 && utf8Length(whole) <= budget * 4)) return { text: whole, truncated: false };
  const enc = await cl100k();
  if (enc.encode(whole).length <= budget) return { text: whole, truncated: false };
  const cost = (line: string): number => enc.encode(line).length + 1;
  const lines = layout.lines;
  const lineCosts = new Int32Array(lines.length).fill(-1);
  const lineCost = (i: number): number => (lineCosts[i]! >= 0 ? lineCosts[i]! : (lineCosts[i] = cost(lines[i]!.text)));
  const longNote = (cut: number) => `... (cut to token_budget=${budget}: ${cut} more line(s); raise token_budget or narrow the question)`;
  const shortNote = (cut: number) => `... (+${cut} line(s) over token_budget=${budget})`;
  let must = 0;
  for (let i = 0; i < lines.length; i++) if (lines[i]!.rank === 0) must += lineCost(i);
  const headCost = (head: string[]): number => head.reduce((sum, l) => sum + cost(l), 0);
  const longNoteCost = cost(longNote(lines.length));
  let head = layout.head;
  if (layout.shortHead && headCost(head) + must + longNoteCost > budget) head = layout.shortHead;
  const note = headCost(head) + must + longNoteCost <= budget ? longNote : shortNote;
  // Lines are chosen by rank, then shown in display order; the last choice is undone until the
  // whole text (whose tokens can merge across line breaks) is within budget.
  const render = (kept: Uint8Array, shortened?: { at: number; text: string }): string => {
    const out = [...head];
    let count = 0;
    for (let i = 0; i < lines.length; i++) {
      if (!kept[i]) continue;
      out.push(shortened?.at === i ? shortened.text : lines[i]!.text);
      count++;
    }
    out.push(note(lines.length - count));
    return out.join('\n');
  };
  const kept = new Uint8Array(lines.length);
  const order: number[] = [];
  let left = budget - headCost(head) - cost(note(lines.length));
  let shortened: { at: number; text: string } | undefined;
  for (const rank of [0, 1, 2] as const) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if ((line.rank ?? 2) !== rank) continue;
      const c = lineCost(i);
      if (c <= left) {
        kept[i] = 1;
        order.push(i);
        left -= c;
      } else if (rank === 0 && !shortened) {
        // A line that must show but does not fit whole: cut inside to what is left (one such line).
        const tokens = enc.encode(line.text);
        shortened = { at: i, text: enc.decode(tokens.slice(0, Math.max(1, left - 2))) + '…' };
        kept[i] = 1;
        left = 0;
      } else if (rank === 2) break;
    }
  }
  let text = render(kept, shortened);
  // Rank 0 lines come first in `order`, so undoing stops at them.
  while (order.length && lines[order[order.length - 1]!]!.rank !== 0 && enc.encode(text).length > budget) {
    kept[order.pop()!] = 0;
    text = render(kept, shortened);
  }
  return { text, truncated: true };
}

/** UTF-8 byte length without encoding (a lone surrogate counts 3 bytes, as TextEncoder's U+FFFD). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
