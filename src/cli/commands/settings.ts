import { UsageError, type Command } from '../command.ts';
import { databaseUrl, setTeamSetting, teamName } from '../../memory/database.ts';
import { redactUrl } from '../../memory/pg/connect.ts';
import { DEFAULT_WORKER_LIMIT_SECONDS, readSettings, setSwitch, setWorkerCommand, settingsFile, type Settings } from '../../skills/index.ts';

const USAGE = `Usage: synaptic settings [learn|mesh|workers [on|off]]
       synaptic settings worker NAME [--limit SECONDS] -- COMMAND [ARG...]
       synaptic settings worker NAME off

  synaptic settings             show the settings
  synaptic settings learn on    serve teach and revise (sessions may write pending skills)
  synaptic settings mesh on     serve the agent mesh tools (register, message, wait, claim work) and their guidance
  synaptic settings workers on  let mesh sessions start the configured workers (off by default)
  synaptic settings worker reviewer --limit 900 -- claude -p {prompt}
                                configure a worker ({prompt} is replaced by the session's prompt;
                                default limit ${DEFAULT_WORKER_LIMIT_SECONDS} s, the worker is killed at it)
  off withdraws a switch or removes a worker.
  synaptic settings database postgres://USER@HOST/DB
                                team mode: memory in that PostgreSQL database
                                (SYNAPTIC_DATABASE_URL overrides it); 'off' returns to local SQLite
  synaptic settings team NAME   the team whose rows this machine sees (default 'default')
A running 'synaptic serve' notices a change and sends tools/list_changed.`;

const SWITCHES = {
  learn: ['learn on: teach and revise are served; taught skills wait for `synaptic skills approve`', 'learn off: teach and revise are withdrawn'],
  mesh: ['mesh on: the agent mesh tools and their guidance are served', 'mesh off: the mesh tools and their guidance are withdrawn'],
  workers: ['workers on: mesh sessions may start the configured workers (synaptic settings worker NAME -- COMMAND...)', 'workers off: mesh sessions cannot start workers'],
} as const;
type Switch = keyof typeof SWITCHES;

function show(s: Settings): string {
  const lines = (Object.keys(SWITCHES) as Switch[]).map((k) => `${k.padEnd(8)} ${s[k] ? 'on' : 'off'}`);
  for (const [name, w] of Object.entries(s.workerCommands)) lines.push(`worker   ${name}: ${JSON.stringify(w.command)} (limit ${w.limitSeconds} s)`);
  return `${lines.join('\n')}\n(${settingsFile()})\n`;
}

function workerCommand(argv: string[]): number {
  const [name, ...rest] = argv;
  if (!name || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) throw new UsageError(`worker takes a NAME of letters, digits, '.', '_' or '-', not '${name ?? ''}'`);
  if (rest.length === 1 && rest[0] === 'off') {
    const had = name in readSettings().workerCommands;
    setWorkerCommand(name, null);
    process.stdout.write(had ? `worker ${name} removed\n` : `no worker ${name} was configured\n`);
    return 0;
  }
  let limitSeconds = DEFAULT_WORKER_LIMIT_SECONDS;
  let i = 0;
  if (rest[i] === '--limit') {
    const n = Number(rest[i + 1]);
    if (!Number.isInteger(n) || n < 1 || n > 86_400) throw new UsageError(`--limit takes whole seconds 1-86400, not '${rest[i + 1] ?? ''}'`);
    limitSeconds = n;
    i += 2;
  }
  if (rest[i] !== '--' || rest.length <= i + 1) throw new UsageError('worker NAME needs -- COMMAND [ARG...] (or off)');
  const command = rest.slice(i + 1);
  setWorkerCommand(name, { command, limitSeconds });
  process.stdout.write(`worker ${name}: ${JSON.stringify(command)} (limit ${limitSeconds} s)${readSettings().workers ? '' : '; sessions can start it once `synaptic settings workers on`'}\n`);
  return 0;
}

export const settingsCommand: Command = {
  name: 'settings',
  summary: 'show or change owner settings (learn, mesh, workers on|off; worker commands)',
  usage: USAGE,
  async run(argv) {
    const [key, value, ...extra] = argv;
    if (key === undefined) {
      process.stdout.write(show(readSettings()));
      return 0;
    }
    if (key === 'database' || key === 'team') return teamSetting(key, value, extra);
    if (key === 'worker') return workerCommand(argv.slice(1));
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    if (!(key in SWITCHES)) throw new UsageError(`unknown setting '${key}' (${Object.keys(SWITCHES).join(', ')}, worker)`);
    const k = key as Switch;
    if (value === undefined) {
      process.stdout.write(`${readSettings()[k] ? 'on' : 'off'}\n`);
      return 0;
    }
    if (value !== 'on' && value !== 'off') throw new UsageError(`${k} takes on or off, not '${value}'`);
    const s = setSwitch(k, value === 'on');
    process.stdout.write(`${SWITCHES[k][s[k] ? 0 : 1]}\n`);
    return 0;
  },
};

/** `settings database URL|off` and `settings team NAME|off`: where memory and the mesh live. */
function teamSetting(key: 'database' | 'team', value: string | undefined, extra: string[]): number {
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (value === undefined) {
    const url = key === 'database' ? databaseUrl() : null;
    process.stdout.write(`${key === 'team' ? teamName() : url === null ? 'off (local SQLite)' : redactUrl(url)}\n`);
    return 0;
  }
  try {
    setTeamSetting(key, value === 'off' ? null : value);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (key === 'team') process.stdout.write(value === 'off' ? "team off: this machine sees team 'default'\n" : `team ${value}: this machine sees that team's memory and mesh\n`);
  else process.stdout.write(value === 'off' ? 'database off: memory and the mesh are in the local SQLite files\n' : `database ${redactUrl(value)}: memory is shared through it (the vault stays local); synaptic data migrate --to ${redactUrl(value)} copies local memory there\n`);
  return 0;
}
