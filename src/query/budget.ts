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

/**
 * Bound a text to `budget` cl100k_base tokens. Text within budget*4 UTF-8 bytes is returned as-is;
 * longer text is cut at the last whole line that fits, followed by a note saying how much was cut.
 */
export async function cutToBudget(text: string, budget: number): Promise<{ text: string; truncated: boolean }> {
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so a short text needs no byte count.
  if (text.length * 3 <= budget * 4 || (text.length <= budget * 4 && utf8Length(text) <= budget * 4)) return { text, truncated: false };
  const enc = await cl100k();
  const tokens = enc.encode(text);
  if (tokens.length <= budget) return { text, truncated: false };
  const lines = text.split('\n');
  const note = (kept: number) => `... (cut to token_budget=${budget}: ${lines.length - kept} more line(s); raise token_budget or narrow the question)`;
  const noteCost = enc.encode(note(lines.length)).length + 1;
  let used = 0;
  let kept = 0;
  for (const line of lines) {
    const cost = enc.encode(line).length + 1;
    if (used + cost + noteCost > budget) break;
    used += cost;
    kept++;
  }
  if (kept === 0) {
    // A single huge line: cut inside it by tokens.
    const head = enc.decode(tokens.slice(0, Math.max(0, budget - noteCost)));
    return { text: head + '\n' + note(1), truncated: true };
  }
  return { text: lines.slice(0, kept).join('\n') + '\n' + note(kept), truncated: true };
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
