/**
 * A one-line progress display on a TTY stream (stderr): a bar with files done/total, rate and ETA
 * while files are parsed, then the name of the running phase. Redraws at most ten times a second;
 * prints nothing when the stream is not a TTY.
 */
export interface Progress {
  update(done: number, total: number): void;
  /** Show a phase name (e.g. `linking`) in place of the bar. */
  phase(name: string): void;
  /** Clear the line. */
  finish(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, label = 'extracting'): Progress {
  if (!stream.isTTY) return { update() {}, phase() {}, finish() {} };
  const started = performance.now();
  let last = 0;
  let drawn = false;
  const draw = (line: string): void => {
    stream.write(`\r${line.slice(0, Math.max(20, (stream.columns ?? 100) - 1))}\x1b[K`);
    drawn = true;
  };
  return {
    update(done, total) {
      const now = performance.now();
      if (done < total && now - last < 100) return;
      last = now;
      const seconds = (now - started) / 1000;
      const rate = seconds > 0 ? done / seconds : 0;
      const eta = rate > 0 ? (total - done) / rate : Infinity;
      const suffix = ` ${done}/${total} files  ${rate.toFixed(0)}/s  ETA ${formatSeconds(eta)}`;
      const width = Math.max(10, Math.min(30, (stream.columns ?? 100) - label.length - suffix.length - 4));
      const filled = total ? Math.round((width * done) / total) : width;
      const bar = '='.repeat(filled) + (filled < width ? '>' + ' '.repeat(width - filled - 1) : '');
      draw(`${label} [${bar}]${suffix}`);
    },
    phase(name) {
      draw(`${label}: ${name}...`);
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
  return `${Math.floor(s / 60)}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
}
