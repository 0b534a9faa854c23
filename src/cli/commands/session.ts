import { isAbsolute, resolve } from 'node:path';
import { UsageError, type Command } from '../command.ts';
import { SESSION_MEMORY_LIMIT, sessionOutput, type SessionSource } from '../../memory/hooks.ts';
import { resolveProject } from '../../memory/project.ts';
import { sanitizeSource } from '../../graph/sanitize.ts';
import { openMemoryBackend } from '../../memory/database.ts';

const USAGE = `Usage: synaptic session [--json] [--project DIR] [--source startup|resume|clear|compact|fork]

The SessionStart hook: prints "Synaptic connected · N memories" and puts this project's memory
(global plus this project's, newest first, within a size budget) into the session's context.
--json prints the hook JSON Claude Code and Codex read; without it, the same text for a terminal.
The hook input on stdin (JSON, as both clients send it) gives the source: after a compaction the
context first asks the session to remember what the summary lists as settled but not stored.
--source overrides it. The project is --project, then SYNAPTIC_PROJECT_DIR, then CLAUDE_PROJECT_DIR,
then the input's cwd, then the working directory, normalized to the repository root.
Never fails a session: problems become the message.`;

const SOURCES: readonly SessionSource[] = ['startup', 'resume', 'clear', 'compact', 'fork'];

/** The fields of the hook input this command uses; bad or missing input gives none. */
interface HookInput {
  source?: SessionSource;
  cwd?: string;
}

/**
 * Reads the client's hook input from stdin when it is not a terminal: both clients write one JSON
 * object and close stdin. Bounded in time and size so a stdin that stays open cannot hang a session.
 */
async function readHookInput(timeoutMs = 2000, maxBytes = 1 << 20): Promise<HookInput> {
  if (process.stdin.isTTY) return {};
  const text = await new Promise<string>((done) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      clearTimeout(timer);
      process.stdin.off('data', onData).off('end', finish).off('error', finish);
      process.stdin.pause();
      done(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (b: Buffer) => {
      chunks.push(b);
      size += b.length;
      if (size > maxBytes) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    process.stdin.on('data', onData).on('end', finish).on('error', finish);
  });
  try {
    const input = JSON.parse(text) as { source?: unknown; cwd?: unknown };
    return {
      source: SOURCES.find((s) => s === input.source),
      cwd: typeof input.cwd === 'string' && isAbsolute(input.cwd) ? input.cwd : undefined,
    };
  } catch {
    return {};
  }
}

export const sessionCommand: Command = {
  name: 'session',
  summary: 'SessionStart hook: connection line and this project\'s memory',
  usage: USAGE,
  async run(argv) {
    let json = false;
    let project: string | undefined;
    let source: SessionSource | undefined;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === '--json') json = true;
      else if (a === '--project' || a === '--source') {
        const v = argv[++i];
        if (v === undefined) throw new UsageError(`${a} needs a value`);
        if (a === '--project') project = v;
        else {
          source = SOURCES.find((s) => s === v);
          if (!source) throw new UsageError(`--source must be one of ${SOURCES.join(', ')}`);
        }
      } else throw new UsageError(`unexpected argument '${a}'`);
    }
    const input = await readHookInput();
    source ??= input.source;
    let output;
    try {
      const cwd = process.env.CLAUDE_PROJECT_DIR || input.cwd || process.cwd();
      const path = resolveProject(project === undefined ? undefined : resolve(project), process.env, cwd).path;
      const store = await openMemoryBackend();
      try {
        output = sessionOutput(path, await store.count(path), await store.recent(path, SESSION_MEMORY_LIMIT), undefined, source);
      } finally {
        await store.close();
      }
    } catch (err) {
      const reason = sanitizeSource((err as Error).message.replace(/\r?\n/g, ' '));
      output = {
        systemMessage: `Synaptic memory unavailable: ${reason}`,
        hookSpecificOutput: { hookEventName: 'SessionStart' as const, additionalContext: `Synaptic memory could not be loaded for this session: ${reason}` },
      };
    }
    if (json) process.stdout.write(`${JSON.stringify(output)}\n`);
    else process.stdout.write(`${output.systemMessage}\n\n${output.hookSpecificOutput.additionalContext}\n`);
    return 0;
  },
};
