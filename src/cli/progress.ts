/**
 * A one-line progress bar on a TTY stream (stderr): files done/total, rate and ETA. Redraws at most
 * ten times a second; prints nothing when the stream is not a TTY.
 */
export interface Progress {
  update(done: number, total: number): void;
  /** Clear the bar. */
  finish(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, label = 'extracting'): Progress {
  if (!stream.isTTY) return { update() {}, finish() {} };
  const started = performance.now();
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = performance.now();
      if (done < total && now - last < 100) return;
      last = now;
      const seconds = (now - started) / 1000;
      const rate = seconds > 0 ? done / seconds : 0;
      const eta = rate > 0 ? (total - done) / rate : 0;
      const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - 60));
      const filled = total ? Math.round((width * done) / total) : width;
      const bar = '='.repeat(filled) + (filled < width ? '>' + ' '.repeat(width - filled - 1) : '');
      const line = `${label} [${bar}] ${done}/${total} files  ${rate.toFixed(0)} files/s  ETA ${formatSeconds(eta)}`;
      stream.write(`\r${line.slice(0, (stream.columns ?? 120) - 1)}\x1b[K`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.ceil(s)}s`;
  return `${Math.floor(s / 60)}m${String(Math.ceil(s % 60)).padStart(2, '0')}s`;
}
