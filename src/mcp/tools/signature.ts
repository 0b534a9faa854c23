import type { Signature } from '../../graph/model.ts';
import { sanitize } from '../../query/sanitize.ts';

/** A captured signature as tools return it: params (name, type?, optional?, default?), return type, raw header. */
export function signatureObject(sig: Signature | undefined): Record<string, unknown> | null {
  if (!sig) return null;
  return {
    params: sig.params.map((p) => ({ name: sanitize(p.name, 80), ...(p.type ? { type: sanitize(p.type, 200) } : {}), ...(p.optional ? { optional: true } : {}), ...(p.default !== undefined ? { default: true } : {}) })),
    returns: sig.returns ? sanitize(sig.returns, 200) : null,
    raw: sanitize(sig.raw, 300),
  };
}

/** `a: number, b? = …` for one line of text. */
export function paramsText(sig: Signature): string {
  return sig.params.map((p) => sanitize(`${p.name}${p.optional ? '?' : ''}${p.type ? `: ${p.type}` : ''}${p.default !== undefined ? ' = …' : ''}`, 120)).join(', ');
}
