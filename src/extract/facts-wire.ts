import { Encoder, decode } from 'cbor-x';
import type { BindingFact, CallFact, FileFacts, TypeRefFact } from './facts.ts';

/**
 * How the facts cache stores one file's facts: the fields every link of every file may read (path,
 * symbols, imports, exports, ...) as they are, and the fields only the linking of the file itself
 * and of the files that read it use (calls, bindings, type references: about two thirds of the
 * bytes) as one encoded body, decoded on first read. A one-file update on a large repository loads
 * every file's facts to build the linker's indexes, and so decodes the bodies of only the few files
 * it relinks or reads. A body that was never changed is written back as the same bytes.
 */

/** The body fields, in the order the body array holds them. */
const BODY_KEYS = ['calls', 'bindings', 'typeRefs'] as const;

type Body = [CallFact[], BindingFact[], TypeRefFact[]];

/** What a cache entry's facts are on disk: body fields null in place (their position keeps the key order), and the body. */
export interface WireFacts {
  facts: FileFacts;
  body: Uint8Array;
}

/** The encoded body of facts that came from the cache (never changed: facts are immutable data). */
const storedBody = new WeakMap<FileFacts, Uint8Array>();

const bodyEncoder = new Encoder({ useRecords: true });

export function toWire(facts: FileFacts): WireFacts {
  const body = storedBody.get(facts) ?? bodyEncoder.encode([facts.calls, facts.bindings, facts.typeRefs] satisfies Body);
  const head: Record<string, unknown> = {};
  for (const key of Object.keys(facts)) head[key] = (BODY_KEYS as readonly string[]).includes(key) ? null : (facts as unknown as Record<string, unknown>)[key];
  return { facts: head as unknown as FileFacts, body };
}

/**
 * The facts of a decoded cache entry: the head object itself, its body fields made enumerable
 * getters in place (so the key order, and a spread or JSON of the facts, are those of freshly
 * parsed facts) that decode the body once.
 */
export function fromWire(wire: WireFacts): FileFacts {
  const { facts, body } = wire;
  if (!(body instanceof Uint8Array)) throw new TypeError('facts cache entry without its body');
  let decoded: Body | undefined;
  const field = (i: number) => (): unknown => (decoded ??= decode(body) as Body)[i];
  for (let i = 0; i < BODY_KEYS.length; i++) {
    Object.defineProperty(facts, BODY_KEYS[i]!, { get: field(i), enumerable: true, configurable: true });
  }
  storedBody.set(facts, body);
  return facts;
}
