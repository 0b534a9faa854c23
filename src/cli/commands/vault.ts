import { parseArgs } from 'node:util';
import { requireApproval } from '../approve.ts';
import { UsageError, type Command } from '../command.ts';
import { ANY_FOLDER, canonicalFolder, formatRef, HUMAN_FLAG, parseRef, projectRoot, VaultStore } from '../../vault/index.ts';

const USAGE = `Usage: synaptic vault <set|list|rm|hold|check> ...

Secrets encrypted at rest (AES-256-GCM). The key comes from SYNAPTIC_VAULT_KEY or a 0600 key file
created on first use in the data folder. Values are never printed, logged or passed in argv.

  synaptic vault set NAME [--for DIR]... [--global] [${HUMAN_FLAG}]
      Store NAME (or vault.NAME) reading the value from a hidden prompt on a terminal, or with
      ${HUMAN_FLAG} from stdin. It is held for the current project (or each --for DIR; --global:
      every folder).
  synaptic vault list [--json]      names and the folders they are held for
  synaptic vault rm NAME [--for DIR]...
      Remove the secret, or only its hold on the given folders.
  synaptic vault hold NAME --for DIR... [${HUMAN_FLAG}]   hold an existing secret for more folders
  synaptic vault check              decrypt every value to verify the key and the file

A folder uses a secret only when a trusted scope file names it: see 'synaptic scope --help'.
set and hold grant secrets, so a person approves them: they ask for "yes" on a terminal, and are
refused without one or inside an AI agent's session (CLAUDECODE, CODEX_SANDBOX, ... set).
${HUMAN_FLAG} says "I am a human": a person running them from a script passes it to skip the
question; an agent must never pass it.`;

function folders(values: string[] | undefined, global: boolean | undefined): string[] {
  if (global) return [ANY_FOLDER];
  if (values && values.length) return values.map((d) => canonicalFolder(d));
  return [projectRoot(canonicalFolder(process.cwd()))];
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  let value = Buffer.concat(chunks);
  // Drop the one line ending `echo` or a here-string adds; keep everything else byte for byte.
  if (value.at(-1) === 0x0a) value = value.subarray(0, value.at(-2) === 0x0d ? -2 : -1);
  return value;
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(prompt: string): Promise<Buffer> {
  const stdin = process.stdin;
  // Echo goes off before the prompt shows, so nothing typed in answer to it is ever echoed.
  stdin.setRawMode(true);
  stdin.resume();
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    const bytes: number[] = [];
    const done = (err: Error | null): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      const value = Buffer.from(bytes);
      bytes.fill(0);
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (buf: Buffer): void => {
      for (const b of buf) {
        if (b === 3 || b === 4) return done(new Error('Cannot store the secret: cancelled'));
        if (b === 13 || b === 10) return done(null);
        if (b === 127 || b === 8) {
          while (bytes.length && (bytes[bytes.length - 1]! & 0xc0) === 0x80) bytes.pop();
          bytes.pop();
        } else {
          bytes.push(b);
        }
      }
      buf.fill(0);
    };
    stdin.on('data', onData);
  });
}

export const vaultCommand: Command = {
  name: 'vault',
  summary: 'store, list and remove encrypted secrets',
  usage: USAGE,
  async run(argv) {
    const [sub, ...rest] = argv;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { for: { type: 'string', multiple: true }, global: { type: 'boolean' }, json: { type: 'boolean' }, 'i-am-human': { type: 'boolean' } },
    });
    const human = values['i-am-human'] === true;
    const reach = (held: string[]) => held.map((f) => (f === ANY_FOLDER ? 'every folder' : f)).join(', ');
    const store = new VaultStore();
    switch (sub) {
      case 'set': {
        if (positionals.length !== 1) throw new UsageError('set takes one NAME (the value comes from stdin or a prompt, never argv)');
        const ref = parseRef(positionals[0]!);
        const held = folders(values.for, values.global);
        const what = `${formatRef(ref)} will be held for ${reach(held)}: a trusted scope file there hands its value to the commands run in it.`;
        await requireApproval(`store ${formatRef(ref)}`, what, 'Store it?', human);
        const value = process.stdin.isTTY ? await promptHidden(`Value for ${formatRef(ref)}: `) : await readStdin();
        try {
          const info = store.set(ref, value, held);
          process.stdout.write(`Stored ${info.ref}, held for ${info.folders.join(', ')}\n`);
        } finally {
          value.fill(0);
        }
        return 0;
      }
      case 'list': {
        const list = store.list();
        if (values.json) {
          process.stdout.write(JSON.stringify(list.map(({ ref, folders: f, updated }) => ({ name: ref, folders: f, updated })), null, 2) + '\n');
        } else if (list.length === 0) {
          process.stdout.write('The vault is empty: add a secret with `synaptic vault set NAME`\n');
        } else {
          const width = Math.max(...list.map((s) => s.ref.length));
          for (const s of list) process.stdout.write(`${s.ref.padEnd(width)}  ${s.folders.map((f) => (f === ANY_FOLDER ? '(every folder)' : f)).join(', ')}\n`);
        }
        return 0;
      }
      case 'rm': {
        if (positionals.length !== 1) throw new UsageError('rm takes one NAME');
        const ref = parseRef(positionals[0]!);
        const only = values.global ? [ANY_FOLDER] : values.for?.map((d) => canonicalFolder(d));
        if (!store.remove(ref, only)) {
          process.stderr.write(`synaptic vault: Cannot remove ${formatRef(ref)}: the vault holds no such secret\n`);
          return 1;
        }
        process.stdout.write(only ? `Removed ${formatRef(ref)} from ${only.join(', ')}\n` : `Removed ${formatRef(ref)}\n`);
        return 0;
      }
      case 'hold': {
        if (positionals.length !== 1 || (!values.for && !values.global)) throw new UsageError('hold takes one NAME and --for DIR (or --global)');
        const ref = parseRef(positionals[0]!);
        const held = folders(values.for, values.global);
        const what = `${formatRef(ref)} will also be held for ${reach(held)}: a trusted scope file there hands its value to the commands run in it.`;
        await requireApproval(`hold ${formatRef(ref)}`, what, 'Hold it?', human);
        const info = store.hold(ref, held);
        if (!info) {
          process.stderr.write(`synaptic vault: Cannot hold ${formatRef(ref)}: the vault holds no such secret\n`);
          return 1;
        }
        process.stdout.write(`${info.ref} is held for ${info.folders.join(', ')}\n`);
        return 0;
      }
      case 'check': {
        const n = store.verify();
        process.stdout.write(`The vault key opens all ${n} secret${n === 1 ? '' : 's'}\n`);
        return 0;
      }
      default:
        throw new UsageError(sub ? `unknown subcommand '${sub}' (set, list, rm, hold, check)` : 'missing subcommand (set, list, rm, hold, check)');
    }
  },
};
