import { z } from 'zod';
import { lineOf } from '../../query/engine.ts';
import { sanitize, sanitizeSource } from '../../query/sanitize.ts';
import { readLines } from '../../query/source.node.ts';
import { toolError, toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { unresolvedText } from './format.ts';

/** A line range, "108-140", or a first line, "108" (checked by a refine: the description says the form, so the schema carries no pattern). */
const LINES = /^\s*\d+\s*(-\s*\d+\s*)?$/;

const input = z.object({
  label: z.string().optional().describe('The symbol whose body to read.'),
  file: z.string().optional().describe('A repo-relative file to read instead of a symbol.'),
  lines: z.string().refine((s) => LINES.test(s), 'lines must look like "108-140" or "108"').optional().describe('With file: "108-140", or "108" to read context_lines from there.'),
  // The handler clamps (any integer is accepted), so the bounds are advertised in the schema, not enforced by it.
  context_lines: z.number().int().meta({ minimum: 1, maximum: 400 }).optional().describe('How many lines to read.'),
});

/** get_source: the source lines of a symbol or a file range, read inside the --source-root jail (source-text rule: sanitizeSource). */
export function createGetSourceTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'get_source',
    title: 'Read source',
    description:
      'Read code: the numbered source lines of a symbol (its body) or of a file range (file + lines).',
    inputSchema: input,
    annotations: READ_ONLY,
    async handler(args) {
      const count = Math.max(1, Math.min(400, args.context_lines ?? ctx.defaults.contextLines));
      if (args.file) {
        let from = 1;
        let to = count;
        if (args.lines) {
          const [a, b] = args.lines.split('-').map((s) => Number(s.trim()));
          from = a!;
          to = b !== undefined ? Math.min(b, a! + 399) : a! + count - 1;
        }
        const r = readLines(ctx.sourceRoot, args.file, from, to);
        return toolResult(`${sanitize(args.file)}:L${r.from}-L${r.to}\n${number(r.lines, r.from)}`);
      }
      if (!args.label) return toolError('Cannot read source: pass label (a symbol) or file (a repo-relative path)');
      const engine = await ctx.engine();
      const res = engine.resolve(args.label);
      if (res.status !== 'found') return toolResult(unresolvedText(res));
      const node = engine.ix.node(res.node);
      if (!node.source_file) return toolError(`Cannot read source: node '${sanitize(engine.ix.label(res.node))}' has no source file`);
      const start = node.span?.start_line ?? (lineOf(node.source_location) || 1);
      const end = node.span && node.kind !== 'file' ? Math.min(node.span.end_line, start + count - 1) : start + count - 1;
      const r = readLines(ctx.sourceRoot, node.source_file, start, end);
      const header = `${sanitize(engine.ix.label(res.node))} [${sanitize(node.kind ?? node.file_type, 30)}] ${engine.safeFile(res.node)}:L${r.from}-L${r.to}`;
      const cut = node.span && node.kind !== 'file' && r.lines.length && node.span.end_line > r.to ? `\n${continuesLine(engine.safeFile(res.node), start, r.to, node.span.end_line)}` : '';
      return toolResult(`${header}\n${number(r.lines, r.from)}${cut}`);
    },
  };
}

/**
 * The line that says a symbol was cut at the window's end, and how to read the rest: a larger
 * context_lines while the whole symbol fits the 400-line cap, else a file + lines range.
 */
function continuesLine(file: string, start: number, shownTo: number, end: number): string {
  const whole = end - start + 1;
  return whole <= 400
    ? `… continues to L${end}; pass context_lines=${whole}`
    : `… continues to L${end}; read the rest with file="${file}" lines="${shownTo + 1}-${Math.min(end, shownTo + 400)}"`;
}

function number(lines: string[], from: number): string {
  const width = String(from + lines.length - 1).length;
  return lines.map((l, i) => `${String(from + i).padStart(width)}  ${sanitizeSource(l)}`).join('\n');
}
