import { createWriteStream, renameSync, rmSync } from 'node:fs';

/**
 * Write an export's chunks to a file (atomically: a temp file renamed into place) or to stdout,
 * batched into ~1 MB writes with backpressure, so the output never exists as one whole string.
 * Resolves to the bytes written.
 */
export async function writeChunks(chunks: Iterable<string>, file: string | undefined): Promise<number> {
  const tmp = file === undefined ? undefined : `${file}.${process.pid}.tmp`;
  const out = tmp === undefined ? process.stdout : createWriteStream(tmp);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {}); // observed below; an early error must not be an unhandled rejection
  let bytes = 0;
  let batch = '';
  const flush = async (): Promise<void> => {
    bytes += Buffer.byteLength(batch);
    const ok = out.write(batch);
    batch = '';
    if (!ok) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
  };
  try {
    for (const c of chunks) {
      batch += c;
      if (batch.length >= 1 << 20) await flush();
    }
    if (batch) await flush();
    if (tmp !== undefined) {
      await Promise.race([new Promise<void>((r) => (out as ReturnType<typeof createWriteStream>).end(() => r())), failed]);
      renameSync(tmp, file!);
    }
  } catch (err) {
    if (tmp !== undefined) rmSync(tmp, { force: true });
    throw err;
  }
  return bytes;
}
