import { UsageError, type Command } from '../command.ts';
import { readSettings, setLearn, settingsFile } from '../../skills/index.ts';

const USAGE = `Usage: synaptic settings [learn [on|off]]

  synaptic settings             show the settings
  synaptic settings learn on    serve teach and revise (sessions may write pending skills)
  synaptic settings learn off   withdraw them
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
