import { watch, type FSWatcher } from 'node:fs';
import { readSettings, type Env, type Settings } from '../skills/index.ts';
import { ensureDataDir } from '../vault/index.ts';

const POLL_MS = 3000;

/**
 * One owner switch of settings.json (`learn`, `mesh`) as a tool provider sees it: `on()` re-reads the
 * file, and listeners run when it flips, noticed by fs.watch on the data folder (a slow poll backs it
 * up), so the server can send `notifications/tools/list_changed` while it runs. An unreadable file
 * reads as off.
 */
export class SettingSwitch {
  private value: boolean;
  private readonly listeners: Array<() => void> = [];
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;

  constructor(
    private readonly env: Env,
    private readonly pick: (s: Settings) => boolean,
  ) {
    this.value = this.read();
  }

  private read(): boolean {
    try {
      return this.pick(readSettings(this.env));
    } catch {
      return false;
    }
  }

  /** The switch now (and listeners told if it flipped since the last look). */
  on(): boolean {
    const next = this.read();
    if (next !== this.value) {
      this.value = next;
      for (const l of this.listeners) queueMicrotask(l);
    }
    return this.value;
  }

  /** Calls `listener` after each flip; starts watching on the first listener. */
  onFlip(listener: () => void): void {
    this.listeners.push(listener);
    if (this.poll) return;
    this.poll = setInterval(() => this.on(), POLL_MS);
    this.poll.unref();
    try {
      this.watcher = watch(ensureDataDir(this.env), { persistent: false }, (_event, file) => {
        if (file === null || file === 'settings.json') this.on();
      });
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = undefined; // the poll keeps working
      });
    } catch {
      this.watcher = undefined;
    }
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
  }
}
