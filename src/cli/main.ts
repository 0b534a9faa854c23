#!/usr/bin/env node
import { COMMANDS, type CommandEntry } from './commands/index.ts';
import { UsageError } from './command.ts';
import { packageVersion } from './version.ts';
import { PACKAGE_NAME } from '../graph/package.node.ts';

async function helpText(): Promise<string> {
  const width = Math.max(8, ...COMMANDS.map((c) => c.name.length));
  const lines = await Promise.all(
    COMMANDS.map(async (c) => {
      const summary = await c.load().then((cmd) => cmd.summary, (err: unknown) => `(unavailable: ${err instanceof Error ? err.message : String(err)})`);
      return `  ${c.name.padEnd(width)}  ${summary}`;
    }),
  );
  return [
    `synaptic ${packageVersion()} - code knowledge graph and agent memory over MCP`,
    '',
    'Usage: synaptic <command> [options]',
    `       npx -y ${PACKAGE_NAME} <command> [options]   (the npm package, without installing it)`,
    '',
    'Commands:',
    ...(lines.length ? lines : ['  (none yet)']),
    '',
    'Options:',
    '  -h, --help     show help (also: synaptic <command> --help)',
    '  -v, --version  print the version',
  ].join('\n');
}

function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
}

/** Runs the CLI and returns the exit code; never calls process.exit itself. */
export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write((await helpText()) + '\n');
    return first === undefined ? 2 : 0;
  }
  if (first === '-v' || first === '--version') {
    process.stdout.write(packageVersion() + '\n');
    return 0;
  }
  const entry = findCommand(first);
  if (!entry) {
    process.stderr.write(`synaptic: unknown command '${first}' (see 'synaptic --help')\n`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.usage.trimEnd() + '\n');
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`synaptic ${command.name}: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`synaptic ${command.name}: ${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env.SYNAPTIC_DEBUG) console.error(err);
    return 1;
  }
}

// A reader that went away (`synaptic extract --json | head -c 0`): stop quietly, as other CLIs do,
// instead of crashing on the write.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`synaptic: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
