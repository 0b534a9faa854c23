/**
 * Token formats that are a secret on sight: a vendor prefix, or a fixed shape no ordinary text has.
 * Prefixes and lengths follow the vendors' published formats as secretlint's recommended preset
 * (secretlint/secretlint:packages/@secretlint/secretlint-rule-preset-recommend) and gitleaks encode
 * them. Every quantifier is bounded and no pattern nests one, so each scan is linear in the text.
 */

export interface TokenPattern {
  /** Human-readable kind, e.g. "GitHub token". */
  kind: string;
  re: RegExp;
}

/** Not preceded by a token character (a prefix inside a longer word is not the vendor's). */
const S = '(?<![A-Za-z0-9_])';
/** Not followed by a token character: the token ends here. */
const E = '(?![A-Za-z0-9_])';
const re = (body: string, flags = '') => new RegExp(`${S}${body}`, flags);

export const TOKEN_PATTERNS: TokenPattern[] = [
  { kind: 'private key', re: /-----(?:BEGIN|END) (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'private key (PuTTY key file)', re: /PuTTY-User-Key-File-\d+:/ },
  { kind: 'AWS access key', re: re(`(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}${E}`) },
  { kind: 'Google API key', re: re(`AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])`) },
  { kind: 'Google service-account key', re: /"private_key(?:_id)?"\s{0,8}:\s{0,8}"(?:[0-9a-f]{20,80}|-----BEGIN)/ },
  { kind: 'GitHub token', re: re(`(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255})${E}`) },
  { kind: 'GitLab token', re: re(`gl(?:pat|dt|rt|ptt|ft|soat|cbt)-[A-Za-z0-9_-]{20,128}`) },
  { kind: 'Slack token', re: re(`(?:xox[abposre]|xapp|xoxe\\.xox[bp])-(?:\\d-)?[A-Za-z0-9]{1,40}(?:-[A-Za-z0-9]{1,80}){1,4}`) },
  { kind: 'Slack webhook', re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Za-z0-9]{1,40}\/[A-Za-z0-9]{1,40}\/[A-Za-z0-9]{16,80}/ },
  { kind: 'Stripe key', re: re(`(?:sk|rk)_live_[0-9A-Za-z]{16,255}`) },
  { kind: 'Stripe webhook secret', re: re(`whsec_[A-Za-z0-9]{32,80}`) },
  { kind: 'Anthropic API key', re: re(`sk-ant-(?:api|admin)\\d{2}-[A-Za-z0-9_-]{20,200}`) },
  { kind: 'OpenAI API key', re: re(`sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,255}`) },
  { kind: 'npm token', re: re(`npm_[A-Za-z0-9]{36}${E}`) },
  { kind: 'npm token (.npmrc _authToken)', re: /_auth(?:Token)?\s{0,4}=\s{0,4}["']?(?!\$\{?[A-Za-z_])[A-Za-z0-9+/=_-]{16,512}/ },
  { kind: 'PyPI token', re: re(`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,255}`) },
  { kind: 'Twilio key', re: re(`SK[0-9a-f]{32}${E}`) },
  { kind: 'SendGrid key', re: re(`SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}`) },
  { kind: 'JSON web token', re: re(`eyJ[A-Za-z0-9_-]{10,4096}\\.eyJ[A-Za-z0-9_-]{10,8192}\\.[A-Za-z0-9_-]{10,4096}`) },
  { kind: 'Azure storage key', re: /(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{40,100}={0,2}/ },
  { kind: 'Hugging Face token', re: re(`hf_[A-Za-z]{34}${E}`) },
  { kind: 'Databricks token', re: re(`dapi[0-9a-f]{32}(?:-\\d)?${E}`) },
  { kind: 'Shopify token', re: re(`shp(?:at|ss|ca|pa)_[A-Za-z0-9]{32,64}${E}`) },
  { kind: 'Linear API key', re: re(`lin_api_[A-Za-z0-9_]{32,128}`) },
  { kind: 'Notion token', re: re(`ntn_\\d{11}[A-Za-z0-9]{35}${E}`) },
  { kind: 'Groq API key', re: re(`gsk_[A-Za-z0-9]{52}${E}`) },
  { kind: 'HashiCorp Vault token', re: re(`hv[sbr]\\.[A-Za-z0-9_-]{90,300}`) },
  { kind: 'Grafana token', re: re(`(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`) },
  { kind: 'Docker Hub access token', re: re(`dckr_pat_[A-Za-z0-9_-]{27}(?![A-Za-z0-9_-])`) },
  { kind: 'DigitalOcean token', re: re(`do[opr]_v1_[a-f0-9]{64}`) },
  { kind: '1Password service-account token', re: re(`ops_eyJ[A-Za-z0-9+/=_-]{100,1280}`) },
  { kind: 'Figma token', re: re(`figd_[A-Za-z0-9_-]{40,200}`) },
  { kind: 'Vercel token', re: re(`vc[pikar]_[A-Za-z0-9]{24,60}${E}`) },
  { kind: 'Sentry token', re: re(`sntry[su]_[A-Za-z0-9+/=_-]{32,400}`) },
  { kind: 'Postman API key', re: re(`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`) },
  { kind: 'Tailscale key', re: re(`tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{8,40}-[A-Za-z0-9]{16,80}`) },
  { kind: 'age secret key', re: /AGE-SECRET-KEY-1[0-9A-Z]{58}/ },
  { kind: 'Telegram bot token', re: /(?<![0-9])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/ },
  { kind: 'Discord bot token', re: re(`[MNO][A-Za-z0-9_-]{23,25}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_-])`) },
];
