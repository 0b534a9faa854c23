/**
 * Credential detector for memory content. Memories are stored in plain text and returned to every
 * connected agent, so anything that looks like a secret is refused and the caller is pointed to the
 * vault. The detector names the kind of credential, never the value.
 */

export interface CredentialFinding {
  /** Human-readable kind, e.g. "private key" or "GitHub token". */
  kind: string;
}

interface Pattern {
  kind: string;
  re: RegExp;
}

/** Well-known token formats: a match alone is enough. */
const PATTERNS: Pattern[] = [
  { kind: 'private key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'AWS access key', re: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[0-9A-Z]{16}\b/ },
  { kind: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/ },
  { kind: 'GitLab token', re: /\bglpat-[A-Za-z0-9_-]{20,}\b/ },
  { kind: 'Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/ },
  { kind: 'Slack webhook', re: /hooks\.slack\.com\/services\/T[A-Za-z0-9]+\/B[A-Za-z0-9]+\/[A-Za-z0-9]{16,}/ },
  { kind: 'Stripe key', re: /\b(?:sk|rk)_live_[0-9A-Za-z]{16,}\b/ },
  { kind: 'Anthropic API key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  { kind: 'OpenAI API key', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/ },
  { kind: 'npm token', re: /\bnpm_[A-Za-z0-9]{36}\b/ },
  { kind: 'PyPI token', re: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}/ },
  { kind: 'Twilio key', re: /\bSK[0-9a-f]{32}\b/ },
  { kind: 'SendGrid key', re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/ },
  { kind: 'JSON web token', re: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
  { kind: 'Azure storage key', re: /AccountKey=[A-Za-z0-9+/]{40,}={0,2}/ },
  { kind: 'Google service-account key', re: /"private_key_id"\s*:\s*"[0-9a-f]{20,}"/ },
];

/** `scheme://user:password@host`: any password that is not an obvious placeholder. */
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@'"`]+:([^\s@/'"`]+)@[^\s/]/gi;

/** `NAME = value` where NAME ends like a credential name. */
const ASSIGNMENT =
  /(?:^|[^A-Za-z0-9_])([A-Za-z0-9_.-]*?(?:api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key|_key|key|token|secret|passwd|password|pwd|credentials?|auth))["']?\s*(?::=|=>|[:=])\s*(["'`]?)([^\s"'`,;)}\]]+)\2/gi;

const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\(.*\)|<[^>]*>|\{\{.*\}\}|%[sd]|\*+|x+|\.+|-+|null|none|nil|undefined|true|false|changeme|example|placeholder|redacted|secret|password|your[-_a-z]*|my[-_a-z]*|process\.env\..*|os\.environ.*|env\..*|getenv.*)$/i;

/** Shannon entropy in bits per character. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

function classes(s: string): number {
  return (/[a-z]/.test(s) ? 1 : 0) + (/[A-Z]/.test(s) ? 1 : 0) + (/[0-9]/.test(s) ? 1 : 0) + (/[^A-Za-z0-9]/.test(s) ? 1 : 0);
}

/** True for a value that reads like a generated secret rather than a word, path or reference. */
function looksRandom(value: string, passwordLike: boolean): boolean {
  if (PLACEHOLDER.test(value)) return false;
  if (/^[a-z]+(?:[._-][a-z]+)*$/.test(value) && !passwordLike) return false; // identifiers, words
  if (/^\d+(?:\.\d+)*$/.test(value)) return false; // numbers, versions
  if (/^(?:https?:\/\/|\.{0,2}\/|~\/)/.test(value)) return false; // URLs and paths
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?$/.test(value)) return false; // member access
  if (passwordLike) return value.length >= 8 && classes(value) >= 2 && shannonEntropy(value) >= 2.5;
  if (value.length < 16) return false;
  return shannonEntropy(value) >= 3.3 && classes(value) >= 2;
}

/** Returns what kind of credential `text` appears to hold, or null when it looks clean. */
export function detectCredential(text: string): CredentialFinding | null {
  for (const p of PATTERNS) if (p.re.test(text)) return { kind: p.kind };
  for (const m of text.matchAll(URL_PASSWORD)) {
    const pw = m[1]!;
    if (!PLACEHOLDER.test(pw) && !/^(?:pass(?:word)?|pw|pwd|secret|\*+)$/i.test(pw)) return { kind: 'password in a URL' };
  }
  for (const m of text.matchAll(ASSIGNMENT)) {
    const name = m[1]!;
    const value = m[3]!;
    const passwordLike = /pass|pwd/i.test(name);
    if (looksRandom(value, passwordLike)) return { kind: `secret assigned to ${name}` };
  }
  return null;
}

/** The refusal message for a detected credential: names the kind, never the value, points to the vault. */
export function credentialMessage(finding: CredentialFinding): string {
  return (
    `Cannot remember: the content looks like a credential (${finding.kind}); memories never hold secrets. ` +
    'Store the value in the vault (synaptic vault set NAME, value on stdin), name it in the env: block of .synaptic.yaml, ' +
    'and remember only the variable name'
  );
}
