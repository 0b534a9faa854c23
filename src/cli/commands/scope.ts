import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command.ts';
import {
  canonicalFolder,
  contentHash,
  formatRef,
  parseRef,
  parseScopeFile,
  resolveFolder,
  SCOPE_FILE_NAMES,
  scopeFileTemplate,
  TrustStore,
  type VaultStatus,
} from '../../vault/index.ts';

const USAGE = `Usage: synaptic scope <init|trust|deny|status> [DIR] ...

A scope file (.synaptic.yaml; .synapse.yaml is read too) names the vault secrets a folder may use:
  env:
    - DATABASE_URL            # default.DATABASE_URL, exported as DATABASE_URL
    - deploy.RegistryToken    # vault "deploy", exported as RegistryToken
Trust is recorded against the file's content: after any edit it is untrusted until trusted again.

  synaptic scope init [DIR] [--env NAME]...   write DIR/.synaptic.yaml (not trusted yet)
  synaptic scope trust [DIR] [--allow NAME]...
      Trust the scope file(s) in DIR as they are now; --allow lifts an earlier deny of NAME.
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

/** Maps NAME arguments (variable or vault.NAME) to the variables of a parsed scope file. */
function variablesOf(names: string[], file: string, text: string): string[] {
  const parsed = parseScopeFile(text, file);
  return names.map((n) => {
    const byVar = parsed.env.find((e) => e.variable === n);
    if (byVar) return byVar.variable;
    let ref: string | null = null;
    try {
      ref = formatRef(parseRef(n));
    } catch {
      // Not a ref either: reported below.
    }
    const byRef = parsed.env.find((e) => formatRef(e.ref) === ref);
    if (byRef) return byRef.variable;
    throw new Error(`Cannot find "${n}" in ${file}: it names ${parsed.env.map((e) => e.variable).join(', ') || 'nothing'}`);
  });
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
      },
    });
    if (positionals.length > 1) throw new UsageError(`${sub} takes at most one DIR`);
    const trust = new TrustStore();
    const now = Math.floor(Date.now() / 1000);
    switch (sub) {
      case 'init': {
        const dir = canonicalFolder(positionals[0] ?? '.');
        const existing = SCOPE_FILE_NAMES.map((n) => join(dir, n)).find((p) => existsSync(p));
        if (existing) throw new Error(`Cannot create a scope file in ${dir}: ${existing} already exists`);
        const refs = (values.env ?? []).map((n) => {
          const r = parseRef(n);
          return n.includes('.') ? formatRef(r) : r.name;
        });
        const file = join(dir, SCOPE_FILE_NAMES[0]);
        writeFileSync(file, scopeFileTemplate(refs), { flag: 'wx', mode: 0o644 });
        process.stdout.write(`Created ${file}\nName the secrets under env:, then run \`synaptic scope trust${positionals[0] ? ' ' + dir : ''}\`\n`);
        return 0;
      }
      case 'trust': {
        const { dir, files } = filesAt(positionals[0]);
        needFiles(dir, files);
        for (const file of files) {
          const bytes = readFileSync(file);
          const parsed = parseScopeFile(bytes.toString('utf8'), file); // a broken file cannot be trusted
          const allow = values.allow ? variablesOf(values.allow, file, bytes.toString('utf8')) : [];
          const hash = contentHash(bytes);
          const rec = trust.update(file, (old) => ({
            hash,
            trusted: true,
            denyAll: false,
            denied: (old?.denied ?? []).filter((v) => !allow.includes(v)),
            at: now,
          }));
          const granted = parsed.env.map((e) => e.variable).filter((v) => !rec.denied.includes(v));
          process.stdout.write(`Trusted ${file}: ${granted.length ? granted.join(', ') : 'it names no secret yet'}` + (rec.denied.length ? ` (denied: ${rec.denied.join(', ')})` : '') + '\n');
        }
        return 0;
      }
      case 'deny': {
        const { dir, files } = filesAt(positionals[0]);
        needFiles(dir, files);
        for (const file of files) {
          const bytes = readFileSync(file);
          const hash = contentHash(bytes);
          if (values.name?.length) {
            const vars = variablesOf(values.name, file, bytes.toString('utf8'));
            trust.update(file, (old) => ({
              hash: old?.hash ?? hash,
              trusted: old?.trusted ?? false,
              denyAll: old?.denyAll ?? false,
              denied: [...new Set([...(old?.denied ?? []), ...vars])].sort(),
              at: now,
            }));
            process.stdout.write(`Denied ${vars.join(', ')} in ${file}\n`);
          } else {
            trust.update(file, (old) => ({ hash, trusted: false, denyAll: true, denied: old?.denied ?? [], at: now }));
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
