import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { openSnapshot, snapshotChecksum } from '../../graph/snapshot-envelope.ts';
import { fileStamp } from './kept.node.ts';

/**
 * Whether graph.json and graph.cbor are still the files the last complete run wrote (see
 * OutputFolder.checkGraph). That run recorded, in the graph state, each file's size, checksum and
 * stamp (mtime, size, inode, ctime) right after renaming it into place. A file with the same stamp
 * has not been written since (any write or replacement moves its ctime); a file whose stamp moved (a
 * copy of the folder, a touch, an edit, a restore) is read and checked against the recorded size and
 * checksum: CRC-32 for graph.json (node's zlib, streamed in chunks), graph.cbor's own checksum
 * (snapshot-envelope.ts), which decoding it checks too.
 */

/** A graph file as the run that wrote it left it. */
export interface WrittenFile {
  bytes: number;
  /** graph.json: CRC-32 of the file; graph.cbor: the XXH32 of its columns its header names. */
  sum: number;
  /** fileStamp right after the rename (null when it could not be read). */
  stamp: string | null;
}

/** Outcome of a check: a problem (why the file cannot be used), or fine (`restamp`: it moved but its bytes are the same). */
export type FileCheck = { problem: string } | { problem: null; restamp: boolean };

const CHUNK = 1 << 20;

/** Size and CRC-32 of a file, read in 1 MiB chunks (prisma's 48 MB graph.json: ~15 ms of CRC once cached). */
export function fileCrc32(path: string): { bytes: number; sum: number } {
  const chunk = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(path, 'r');
  try {
    let bytes = 0;
    let sum = 0;
    for (let n; (n = readSync(fd, chunk, 0, CHUNK, null)) > 0;) {
      sum = crc32(chunk.subarray(0, n), sum);
      bytes += n;
    }
    return { bytes, sum };
  } finally {
    closeSync(fd);
  }
}

/** Check graph.json against what its writer recorded. */
export function checkGraphJson(path: string, written: WrittenFile): FileCheck {
  if (fileStamp(path) === written.stamp) return { problem: null, restamp: false };
  let now;
  try {
    now = fileCrc32(path);
  } catch (err) {
    return { problem: `graph.json cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  if (now.bytes !== written.bytes) return { problem: `graph.json is ${now.bytes} bytes, not the ${written.bytes} the last run wrote (torn, truncated or edited)` };
  if (now.sum !== written.sum) return { problem: 'graph.json changed since the last run wrote it (its checksum differs)' };
  return { problem: null, restamp: true };
}

/** Check graph.cbor: its own length and checksum, and that it is the file the last run wrote. */
export function checkGraphCbor(path: string, written: WrittenFile): FileCheck {
  if (fileStamp(path) === written.stamp) return { problem: null, restamp: false };
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    return { problem: `graph.cbor cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  try {
    openSnapshot(bytes);
  } catch (err) {
    return { problem: `graph.cbor: ${(err as Error).message.replace(/^Cannot decode graph snapshot: /, '')}` };
  }
  if (bytes.length !== written.bytes || snapshotChecksum(bytes) !== written.sum) return { problem: 'graph.cbor is not the one the last run wrote' };
  return { problem: null, restamp: true };
}
