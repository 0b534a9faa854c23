import { decode } from 'cbor-x';
import { xxh32 } from './checksum.ts';

/**
 * graph.cbor's outer layer (version 2): a CBOR map of four entries in a fixed 64-byte header,
 *
 *   { "format": "synaptic-graph-columns", "version": 2, "xxh32": <uint32>, "columns": <bytes> }
 *
 * where `columns` is the CBOR of the columns (snapshot.ts's Wire) and `xxh32` its checksum
 * (checksum.ts). The byte string's length is the length check: a torn or truncated file and a
 * flipped bit are refused before anything is decoded. A reader of version 1 (no checksum) decodes
 * this map, finds version 2 and refuses it by name; a version 2 reader refuses version 1 files the
 * same way (`synaptic update` writes them anew). The columns start 64 bytes in: typed arrays stay
 * aligned as the encoder laid them out.
 */

export const SNAPSHOT_FORMAT = 'synaptic-graph-columns';
export const SNAPSHOT_VERSION = 2;

/** A graph.cbor that cannot be trusted: truncated, or its checksum does not match. */
export class SnapshotDamagedError extends Error {
  override name = 'SnapshotDamagedError';
}

const utf8 = new TextEncoder();

/** A CBOR text string shorter than 24 bytes. */
function shortText(s: string): number[] {
  const bytes = utf8.encode(s);
  if (bytes.length >= 24) throw new RangeError(`not a short CBOR text: ${s}`);
  return [0x60 + bytes.length, ...bytes];
}

/** The header up to the checksum's 4 bytes: map of 4, format, version, the key `xxh32` and a uint32's head. */
const HEAD = Uint8Array.from([0xa4, ...shortText('format'), ...shortText(SNAPSHOT_FORMAT), ...shortText('version'), SNAPSHOT_VERSION, ...shortText('xxh32'), 0x1a]);
/** Between the checksum and the columns' length: the key `columns` and a byte string's head (4-byte length). */
const MID = Uint8Array.from([...shortText('columns'), 0x5a]);

export const SNAPSHOT_HEADER_BYTES = HEAD.length + 4 + MID.length + 4;
if (SNAPSHOT_HEADER_BYTES !== 64) throw new Error(`graph.cbor header is ${SNAPSHOT_HEADER_BYTES} bytes, not 64`);

const SUM_AT = HEAD.length;
const LENGTH_AT = SUM_AT + 4 + MID.length;

/**
 * The graph.cbor file of the encoded columns `body`. With `room`, the 64 bytes before `body` in its
 * buffer are the caller's to write the header into (no copy); else the file is a new buffer from
 * `allocate`.
 */
export function sealSnapshot(body: Uint8Array, room = false, allocate: (bytes: number) => Uint8Array = (n) => new Uint8Array(n)): Uint8Array {
  if (body.length > 0xffffffff) throw new RangeError(`Cannot write graph.cbor: ${body.length} bytes of columns is more than 4 GiB`);
  let file: Uint8Array;
  if (room && body.byteOffset >= SNAPSHOT_HEADER_BYTES) {
    file = new Uint8Array(body.buffer, body.byteOffset - SNAPSHOT_HEADER_BYTES, SNAPSHOT_HEADER_BYTES + body.length);
  } else {
    file = allocate(SNAPSHOT_HEADER_BYTES + body.length).subarray(0, SNAPSHOT_HEADER_BYTES + body.length);
    file.set(body, SNAPSHOT_HEADER_BYTES);
  }
  file.set(HEAD, 0);
  file.set(MID, SUM_AT + 4);
  const view = new DataView(file.buffer, file.byteOffset, SNAPSHOT_HEADER_BYTES);
  view.setUint32(SUM_AT, xxh32(body));
  view.setUint32(LENGTH_AT, body.length);
  return file;
}

/** The checksum a graph.cbor's header names (null when it has no version 2 header). */
export function snapshotChecksum(file: Uint8Array): number | null {
  if (!hasHeader(file)) return null;
  return new DataView(file.buffer, file.byteOffset, SNAPSHOT_HEADER_BYTES).getUint32(SUM_AT);
}

/**
 * The encoded columns of a graph.cbor file, once its length and checksum are checked. Throws
 * TypeError (not a graph.cbor), RangeError (another version) or {@link SnapshotDamagedError}.
 */
export function openSnapshot(file: Uint8Array): Uint8Array {
  if (!hasHeader(file)) refuse(file);
  const view = new DataView(file.buffer, file.byteOffset, SNAPSHOT_HEADER_BYTES);
  const length = view.getUint32(LENGTH_AT);
  if (SNAPSHOT_HEADER_BYTES + length !== file.length) {
    throw new SnapshotDamagedError(`Cannot decode graph snapshot: the file is damaged (${file.length} bytes where its header says ${SNAPSHOT_HEADER_BYTES + length}: torn or truncated)`);
  }
  const body = file.subarray(SNAPSHOT_HEADER_BYTES);
  const sum = xxh32(body);
  if (sum !== view.getUint32(SUM_AT)) {
    throw new SnapshotDamagedError(`Cannot decode graph snapshot: the file is damaged (checksum ${hex(sum)}, its header says ${hex(view.getUint32(SUM_AT))})`);
  }
  return body;
}

function hasHeader(file: Uint8Array): boolean {
  if (file.length < SNAPSHOT_HEADER_BYTES) return false;
  for (let i = 0; i < HEAD.length; i++) if (file[i] !== HEAD[i]) return false;
  for (let i = 0; i < MID.length; i++) if (file[SUM_AT + 4 + i] !== MID[i]) return false;
  return true;
}

/** Why a file without a version 2 header is refused (decoding it, when it is CBOR, tells which). */
function refuse(file: Uint8Array): never {
  let wire: { format?: unknown; version?: unknown } | undefined;
  try {
    wire = decode(file) as typeof wire;
  } catch {
    // not CBOR, or CBOR cut short
  }
  if (!wire || typeof wire !== 'object' || wire.format !== SNAPSHOT_FORMAT) {
    // Our header with a byte changed is damage; anything else is some other file.
    if (file.length >= HEAD.length && file[0] === HEAD[0] && file[1] === HEAD[1]) {
      throw new SnapshotDamagedError('Cannot decode graph snapshot: the file is damaged (its header does not read)');
    }
    throw new TypeError('Cannot decode graph snapshot: not a graph.cbor file');
  }
  if (wire.version !== SNAPSHOT_VERSION) {
    throw new RangeError(`Cannot decode graph snapshot: version ${String(wire.version)} is not the supported ${SNAPSHOT_VERSION} (run 'synaptic update' to write it anew)`);
  }
  throw new SnapshotDamagedError('Cannot decode graph snapshot: the file is damaged (its header does not read)');
}

const hex = (n: number): string => n.toString(16).padStart(8, '0');
