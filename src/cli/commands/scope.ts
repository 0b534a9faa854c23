import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { requireApproval } from '../approve.ts';
import { UsageError, type Command } from '../command.ts';
import {
  canonicalFolder,
  denyScope,
  formatRef,
  HUMAN_FLAG,
  initScope,
  parseScopeFile,
  resolveFolder,
  SCOPE_FILE_NAMES,
  trustScope,
  type VaultStatus,
} from '../../vault/index.ts';

const USAGE = `Usage: synaptic scope <init|trust|deny|status> [DIR] ...

A scope file (.synaptic.yaml; .synapse.yaml is read too) names the vault secrets a folder may use:
  env:
    - DATABASE_URL            # default.DATABASE_URL, exported as DATABASE_URL
    - deploy.RegistryToken    # vault "deploy", exported as RegistryToken
Trust is recorded against the file's content: after any edit it is untrusted until trusted again.

  synaptic scope init [DIR] [--env NAME]...   write DIR/.synaptic.yaml (not trusted yet)
  synaptic scope trust [DIR] [--allow NAME]... [${HUMAN_FLAG}]
      Trust the scope file(s) in DIR as they are now; --allow lifts an earlier deny of NAME.
      A person approves: it asks for "yes" on a terminal, and is refused without one or inside an
      AI agent's session (CLAUDECODE, CODEX_SANDBOX, ... set). ${HUMAN_FLAG} says "I am a human":
      a person running it from a script passes it to skip the question; an agent must never pass it.
  synaptic scope deny [DIR] [--name NAME]...
      Deny the whole file, or only the named variables (kept across later trusts).
  synaptic scope status [DIR] [--json]        what resolves in DIR and why (vaultstatus)

DIR defaults to the current folder; it may also be the scope file itself.`;

/** The scope files a DIR-or-file argument designates (only that folder, not its parents). */
function filesAt(arg: string | undefined): { dir: string; files: string[] } {
  const target = arg ?? '.';
  if (existsSync(target) && statSync(target).isFile()) {
    const dir = canonicalFolder(dirname(target));
    const name = basename(target);
    if (!(SCOPE_FILE_NAMES as readonly string[]).includes(name)) throw new UsageError(`${target} is not a scope file (${SCOPE_FILE_NAMES.join(' or ')})`);
    return { dir, files: [join(dir, name)] };
  }
  const dir = canonicalFolder(target);
  return { dir, files: SCOPE_FILE_NAMES.map((n) => join(dir, n)).filter((p) => existsSync(p)) };
}

function needFiles(dir: string, files: string[]): void {
  if (files.length === 0) throw new Error(`Cannot find a scope file in ${dir}: create one with \`synaptic scope init\``);
}

/** What trusting `file` (as `bytes`) gives, for the approval prompt; a file that does not parse says why. */
function grantSummary(file: string, bytes: Buffer, dir: string): string {
  const parsed = parseScopeFile(bytes.toString('utf8'), file);
  const names = parsed.env.map((e) => (e.variable === e.ref.name ? formatRef(e.ref) : `${formatRef(e.ref)} as ${e.variable}`));
  if (names.length === 0) return `${file} names no secret yet.`;
  return `${file} names ${names.join(', ')}: once trusted, commands run in ${dir} (synaptic run, synaptic env, the shell hook) receive these values.`;
}

function printStatus(s: VaultStatus): void {
  const out: string[] = [`Folder     ${s.path}`];
  out.push(`Available  ${s.available.length ? s.available.join(', ') : '(none)'}`);
  if (s.unavailable.length) out.push(`Unavailable ${s.unavailable.join(', ')}`);
  out.push(`Elsewhere  ${s.elsewhere} secret${s.elsewhere === 1 ? '' : 's'} held for other folders`);
  out.push(`Shell hook ${s.ambient}${s.shell ? ` (${s.shell})` : ''}`);
  for (const sc of s.scopes) {
    const state = sc.error ? 'error' : sc.changed ? 'changed since reviewed' : sc.trusted ? 'trusted' : 'not trusted';
    out.push(`Scope      ${sc.path} [${sc.scope}] ${state}`);
    if (sc.env.length) out.push(`             env: ${sc.env.join(', ')}`);
    if (sc.denied.length) out.push(`             denied: ${sc.denied.join(', ')}`);
    if (sc.error) out.push(`             ${sc.error}`);
  }
  if (s.scopes.length === 0) out.push('Scope      (no scope file on the way down to this folder)');
  for (const w of s.warnings) out.push(`Warning    ${w}`);
  process.stdout.write(out.join('\n') + '\n');
}

export const scopeCommand: Command = {
  name: 'scope',
  summary: 'create, trust, deny and inspect folder scope files for the vault',
  usage: USAGE,
  async run(argv) {
    const [sub, ...rest] = argv;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        env: { type: 'string', multiple: true },
        allow: { type: 'string', multiple: true },
        name: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        'i-am-human': { type: 'boolean' },
      },
    });
    if (positionals.length > 1) throw new UsageError(`${sub} takes at most one DIR`);
    switch (sub) {
      case 'init': {
        const dir = canonicalFolder(positionals[0] ?? '.');
        const file = initScope(dir, values.env ?? []);
        process.stdout.write(`Created ${file}\nName the secrets under env:, then run \`synaptic scope trust${positionals[0] ? ' ' + dir : ''}\`\n`);
        return 0;
      }
      case 'trust': {
        const { dir, files } = filesAt(positionals[0]);
        needFiles(dir, files);
        for (const file of files) {
          const reviewed = readFileSync(file);
          await requireApproval(`trust ${file}`, grantSummary(file, reviewed, dir), 'Trust it?', values['i-am-human'] === true);
          const { record, granted } = trustScope(file, values.allow ?? [], process.env, reviewed);
          process.stdout.write(`Trusted ${file}: ${granted.length ? granted.join(', ') : 'it names no secret yet'}` + (record.denied.length ? ` (denied: ${record.denied.join(', ')})` : '') + '\n');
        }
        return 0;
      }
      case 'deny': {
        const { dir, files } = filesAt(positionals[0]);
        needFiles(dir, files);
        for (const file of files) {
          if (values.name?.length) {
            process.stdout.write(`Denied ${denyScope(file, values.name).join(', ')} in ${file}\n`);
          } else {
            denyScope(file);
            process.stdout.write(`Denied ${file}: no secret it names resolves until it is trusted again\n`);
          }
        }
        return 0;
      }
      case 'status': {
        const dir = canonicalFolder(positionals[0] ?? '.');
        const { status } = resolveFolder(dir);
        if (values.json) process.stdout.write(JSON.stringify(status, null, 2) + '\n');
        else printStatus(status);
        return 0;
      }
      default:
        throw new UsageError(sub ? `unknown subcommand '${sub}' (init, trust, deny, status)` : 'missing subcommand (init, trust, deny, status)');
    }
  },
};
