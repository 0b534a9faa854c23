/** The `LangSpec` of each language. */
import type { LanguageId } from '../languages.ts';
import { ECMASCRIPT_SPEC } from './ecmascript.ts';
import type { LangSpec } from './spec.ts';

const SPECS: Partial<Record<LanguageId, LangSpec>> = {
  typescript: ECMASCRIPT_SPEC,
  tsx: ECMASCRIPT_SPEC,
  javascript: ECMASCRIPT_SPEC,
};

/** The hooks of a language; throws for a language without extraction support. */
export function specFor(language: LanguageId): LangSpec {
  const s = SPECS[language];
  if (!s) throw new Error(`Cannot extract "${language}": no language hooks registered`);
  return s;
}
