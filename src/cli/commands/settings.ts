import { UsageError, type Command } from '../command.ts';
import { databaseUrl, setTeamSetting, teamName } from '../../memory/database.ts';
import { redactUrl } from '../../memory/pg/connect.ts';
import { readSettings, setLearn, settingsFile } from '../../skills/index.ts';

const USAGE = `Usage: synaptic settings [learn [on|off]]

  synaptic settings             show the settings
  synaptic settings learn on    serve teach and revise (sessions may write pending skills)
  synaptic settings learn off   withdraw them
  synaptic settings database postgres://USER@HOST/DB
                                team mode: memory in that PostgreSQL database
                                (SYNAPTIC_DATABASE_URL overrides it); 'off' returns to local SQLite
  synaptic settings team NAME   the team whose rows this machine sees (default 'default')
A running 'synaptic serve' notices the change and sends tools/list_changed.`;

export const settingsCommand: Command = {
  name: 'settings',
  summary: 'show or change owner settings (learn on|off)',
  usage: USAGE,
  async run(argv) {
    const [key, value, ...extra] = argv;
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    if (key === undefined) {
      const s = readSettings();
      process.stdout.write(`learn  ${s.learn ? 'on' : 'off'}\n(${settingsFile()})\n`);
      return 0;
    }
    if (key === 'database' || key === 'team') return teamSetting(key, value, extra);
    if (key !== 'learn') throw new UsageError(`unknown setting '${key}' (learn)`);
    if (value === undefined) {
      process.stdout.write(`${readSettings().learn ? 'on' : 'off'}\n`);
      return 0;
    }
    if (value !== 'on' && value !== 'off') throw new UsageError(`learn takes on or off, not '${value}'`);
    const s = setLearn(value === 'on');
    process.stdout.write(s.learn ? 'learn on: teach and revise are served; taught skills wait for `synaptic skills approve`\n' : 'learn off: teach and revise are withdrawn\n');
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
