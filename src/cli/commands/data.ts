import { UsageError, type Command } from '../command.ts';
import { backupDatabase, restoreDatabase } from '../../memory/backup.ts';
import { dataDir } from '../../memory/paths.ts';

const USAGE = `Usage: synaptic data <backup|restore> <file>

  synaptic data backup <file>    consistent copy of the memory database, safe while servers run
  synaptic data restore <file>   replace the memory database with a backup; refuses while any
                                 server or command is connected (close agent sessions first).
                                 The replaced database is kept as memory.db.before-restore.`;

export const dataCommand: Command = {
  name: 'data',
  summary: 'back up or restore the memory database',
  usage: USAGE,
  async run(argv) {
    const [sub, file, ...extra] = argv;
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    if (sub !== 'backup' && sub !== 'restore') throw new UsageError('needs backup <file> or restore <file>');
    if (!file) throw new UsageError(`${sub} needs a file`);
    const dir = dataDir();
    if (sub === 'backup') {
      const r = await backupDatabase(dir, file);
      process.stdout.write(`Backed up ${r.memories} memories to ${r.file}\n`);
    } else {
      const r = restoreDatabase(dir, file);
      process.stdout.write(`Restored ${r.memories} memories from ${file}${r.previous ? ` (previous database kept as ${r.previous})` : ''}\n`);
    }
    return 0;
  },
};
