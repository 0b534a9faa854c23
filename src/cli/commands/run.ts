import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { UsageError, type Command } from '../command.ts';
import { canonicalFolder, formatRef, resolveFolder, VaultStore } from '../../vault/index.ts';

const USAGE = `Usage: synaptic run [--path DIR] [--] <command> [args...]

Starts <command> with the secrets the folder's trusted scope files grant in its environment
(DIR defaults to the current folder). Values go only into the child's environment, never argv.
Names a scope file asks for but cannot reach are listed on stderr. The exit code is the command's.`;

/** Splits `[--path DIR] [--] cmd args` (options stop at the first non-option or `--`). */
function split(argv: string[]): { path: string | undefined; command: string[] } {
  let path: string | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a === '--path') {
      path = argv[++i];
      if (path === undefined) throw new UsageError('--path needs a folder');
    } else if (a.startsWith('--path=')) {
      path = a.slice('--path='.length);
    } else if (a.startsWith('-')) {
      throw new UsageError(`unknown option '${a}' (put the command after --)`);
    } else {
      break;
    }
  }
  return { path, command: argv.slice(i) };
}

export const runCommand: Command = {
  name: 'run',
  summary: "run a command with the folder's approved secrets in its environment",
  usage: USAGE,
  async run(argv) {
    const { path, command } = split(argv);
    if (command.length === 0) throw new UsageError('missing the command to run (synaptic run -- <command> [args...])');
    const folder = canonicalFolder(path ?? '.');
    const { status, grants } = resolveFolder(folder);
    if (status.unavailable.length) {
      process.stderr.write(`synaptic run: not available in ${folder}: ${status.unavailable.join(', ')} (see \`synaptic scope status\`)\n`);
    }
    const values = new VaultStore().reveal(grants.map((g) => g.ref));
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const g of grants) env[g.variable] = values.get(formatRef(g.ref));
    values.clear();
    return await new Promise<number>((resolve) => {
      const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env });
      const forward = (sig: NodeJS.Signals): void => {
        child.kill(sig);
      };
      const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
      for (const s of signals) process.on(s, forward);
      const cleanup = (): void => {
        for (const s of signals) process.off(s, forward);
      };
      child.on('error', (err: NodeJS.ErrnoException) => {
        cleanup();
        process.stderr.write(
          `synaptic run: Cannot run "${command[0]}": ${err.code === 'ENOENT' ? 'command not found' : err.code === 'EACCES' ? 'permission denied' : err.message}\n`,
        );
        resolve(err.code === 'ENOENT' ? 127 : 126);
      });
      child.on('exit', (code, signal) => {
        cleanup();
        resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
      });
    });
  },
};
