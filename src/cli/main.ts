#!/usr/bin/env node
import { COMMANDS } from './commands/index.ts';
import { UsageError, type Command } from './command.ts';
import { packageVersion } from './version.ts';

function helpText(): string {
  const width = Math.max(8, ...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `synaptic ${packageVersion()} - code knowledge graph and agent memory over MCP`,
    '',
    'Usage: synaptic <command> [options]',
    '',
    'Commands:',
    ...(lines.length ? lines : ['  (none yet)']),
    '',
    'Options:',
    '  -h, --help     show help (also: synaptic <command> --help)',
    '  -v, --version  print the version',
  ].join('\n');
}

function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
}

/** Runs the CLI and returns the exit code; never calls process.exit itself. */
export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write(helpText() + '\n');
    return first === undefined ? 2 : 0;
  }
  if (first === '-v' || first === '--version') {
    process.stdout.write(packageVersion() + '\n');
    return 0;
  }
  const command = findCommand(first);
  if (!command) {
    process.stderr.write(`synaptic: unknown command '${first}' (see 'synaptic --help')\n`);
    return 2;
  }
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`synaptic: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
