/**
 * Credential shapes a memory must refuse, and ordinary engineering notes it must keep. Every token is
 * built at run time from a seeded generator, so this file holds no token-shaped literal (secret scanners
 * on the repository stay quiet) and the values are the same on every run.
 */

/** Seeded PRNG (mulberry32): the corpus is identical on every run. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = generator(0x5eed);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}_-`;
const HEX = '0123456789abcdef';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `n` characters drawn from `alphabet`. */
function rand(n: number, alphabet = ALNUM): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return s;
}

/** Random bytes of length `n` (for DER bodies). */
function bytes(n: number): Buffer {
  return Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256)));
}

const b64 = (b: Buffer) => b.toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const wrap = (s: string) => s.replace(/(.{64})/g, '$1\n');
const pemBegin = (label: string) => `-----${'BEGIN'} ${label}-----`;
const pemEnd = (label: string) => `-----${'END'} ${label}-----`;
/** A DER private key body: SEQUENCE, version INTEGER, then the key material. */
const rsaDer = () => Buffer.concat([Buffer.from([0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00]), bytes(180)]);
const pkcs8Der = () =>
  Buffer.concat([Buffer.from('308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100', 'hex'), bytes(180)]);
const ecDer = () => Buffer.concat([Buffer.from('307702010104', 'hex'), Buffer.from([0x20]), bytes(32), Buffer.from('a00a06082a8648ce3d030107a144034200', 'hex'), bytes(65)]);
const opensshBody = () => b64(Buffer.concat([Buffer.from('openssh-key-v1\0'), bytes(160)]));
const jwt = () => `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${rand(8)}","iat":1716239022}`)}.${rand(43, URLSAFE)}`;
const awsSecret = () => rand(40, B64);
const zwsp = (s: string, every = 4) => s.replace(new RegExp(`(.{${every}})`, 'g'), '$1\u200b').replace(/\u200b$/, '');
const fullWidth = (s: string) => [...s].map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');

/** Where a secret sits in a remember call: the stored field and the rest of the arguments. */
export interface Shape {
  /** What the shape is, for test names. */
  name: string;
  /** The content (or other field) holding the secret. */
  text: string;
  /** Which remember argument holds it (default content). */
  field?: 'content' | 'source' | 'project';
  /** The detector's kind must match this. */
  kind: RegExp;
}

const gh = () => `ghp_${rand(36)}`;

/** Every shape a secret scanner refuses: must be refused, naming its kind. */
export const POSITIVES: Shape[] = [
  // Private keys, with and without their armour.
  { name: 'RSA private key (PEM)', text: `${pemBegin('RSA PRIVATE KEY')}\n${wrap(b64(rsaDer()))}\n${pemEnd('RSA PRIVATE KEY')}`, kind: /private key/ },
  { name: 'PKCS#8 private key (PEM)', text: `${pemBegin('PRIVATE KEY')}\n${wrap(b64(pkcs8Der()))}\n${pemEnd('PRIVATE KEY')}`, kind: /private key/ },
  { name: 'EC private key (PEM)', text: `${pemBegin('EC PRIVATE KEY')}\n${wrap(b64(ecDer()))}\n${pemEnd('EC PRIVATE KEY')}`, kind: /private key/ },
  { name: 'OpenSSH private key (PEM)', text: `${pemBegin('OPENSSH PRIVATE KEY')}\n${wrap(opensshBody())}\n${pemEnd('OPENSSH PRIVATE KEY')}`, kind: /private key/ },
  { name: 'encrypted private key (PEM)', text: `${pemBegin('ENCRYPTED PRIVATE KEY')}\n${wrap(b64(bytes(200)))}\n${pemEnd('ENCRYPTED PRIVATE KEY')}`, kind: /private key/ },
  { name: 'PGP private key block', text: `${pemBegin('PGP PRIVATE KEY BLOCK')}\n\n${wrap(b64(bytes(200)))}\n${pemEnd('PGP PRIVATE KEY BLOCK')}`, kind: /private key/ },
  { name: 'RSA key body without the BEGIN line', text: `the key is\n${wrap(b64(rsaDer()))}\n${pemEnd('RSA PRIVATE KEY')}`, kind: /private key/ },
  { name: 'RSA key body alone (no armour at all)', text: `paste this into the server: ${wrap(b64(rsaDer()))}`, kind: /private key/ },
  { name: 'PKCS#8 key body alone', text: wrap(b64(pkcs8Der())), kind: /private key/ },
  { name: 'EC key body alone', text: `ec key ${b64(ecDer())}`, kind: /private key/ },
  { name: 'OpenSSH key body alone', text: `id_ed25519 holds ${wrap(opensshBody())}`, kind: /private key/ },
  { name: 'PuTTY private key', text: `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n${b64(bytes(48))}`, kind: /private key/ },
  { name: 'service-account JSON private_key', text: `{"type": "service_account", "private_key_id": "${rand(40, HEX)}", "client_email": "x@y.iam.gserviceaccount.com"}`, kind: /service-account|private key/ },

  // Cloud and vendor tokens.
  { name: 'AWS access key id', text: `aws key AKIA${rand(16, UPPER_DIGITS)}`, kind: /AWS/ },
  { name: 'AWS session key id', text: `temporary creds ASIA${rand(16, UPPER_DIGITS)}`, kind: /AWS/ },
  { name: 'AWS secret key assigned', text: `aws_secret_access_key = ${awsSecret()}`, kind: /AWS|secret/ },
  { name: 'bare AWS secret key', text: `the secret half is ${awsSecret()}`, kind: /AWS secret key/ },
  { name: 'bare AWS secret key on its own', text: awsSecret(), kind: /AWS secret key/ },
  { name: 'Google API key', text: `maps key AIza${rand(35, URLSAFE)}`, kind: /Google/ },
  { name: 'GitHub classic token', text: `token ${gh()}`, kind: /GitHub/ },
  { name: 'GitHub OAuth token', text: `gho_${rand(36)}`, kind: /GitHub/ },
  { name: 'GitHub app token', text: `installation token ghs_${rand(36)}`, kind: /GitHub/ },
  { name: 'GitHub fine-grained token', text: `github_pat_${rand(22)}_${rand(59)}`, kind: /GitHub/ },
  { name: 'GitLab token', text: `glpat-${rand(20, URLSAFE)}`, kind: /GitLab/ },
  { name: 'Slack bot token', text: `xoxb-${rand(11, '0123456789')}-${rand(13, '0123456789')}-${rand(24)}`, kind: /Slack/ },
  { name: 'Slack user token', text: `xoxp-${rand(11, '0123456789')}-${rand(11, '0123456789')}-${rand(12, '0123456789')}-${rand(32, HEX)}`, kind: /Slack/ },
  { name: 'Slack app-level token', text: `socket mode uses xapp-1-A${rand(10, UPPER_DIGITS)}-${rand(13, '0123456789')}-${rand(64, HEX)}`, kind: /Slack/ },
  { name: 'Slack webhook', text: `https://hooks.slack.com/services/T${rand(8, UPPER_DIGITS)}/B${rand(8, UPPER_DIGITS)}/${rand(24)}`, kind: /Slack/ },
  { name: 'Stripe live secret key', text: `sk_live_${rand(24)}`, kind: /Stripe/ },
  { name: 'Stripe restricted key', text: `rk_live_${rand(24)}`, kind: /Stripe/ },
  { name: 'Anthropic API key', text: `ANTHROPIC key sk-ant-api03-${rand(93, URLSAFE)}AA`, kind: /Anthropic/ },
  { name: 'OpenAI project key', text: `sk-proj-${rand(48, URLSAFE)}`, kind: /OpenAI/ },
  { name: 'npm token', text: `npm_${rand(36)}`, kind: /npm/ },
  { name: 'npmrc auth token', text: `//registry.npmjs.org/:_authToken=${rand(8, HEX)}-${rand(4, HEX)}-${rand(4, HEX)}-${rand(4, HEX)}-${rand(12, HEX)}`, kind: /npm|secret|token/i },
  { name: 'PyPI token', text: `pypi-AgEIcHlwaS5vcmc${rand(60, URLSAFE)}`, kind: /PyPI/ },
  { name: 'Twilio API key', text: `SK${rand(32, HEX)}`, kind: /Twilio/ },
  { name: 'SendGrid key', text: `SG.${rand(22, URLSAFE)}.${rand(43, URLSAFE)}`, kind: /SendGrid/ },
  { name: 'JSON web token', text: `session cookie ${jwt()}`, kind: /JSON web token/ },
  { name: 'Azure storage connection string', text: `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${rand(86, B64)}==;EndpointSuffix=core.windows.net`, kind: /Azure/ },
  { name: 'Hugging Face token', text: `HF token hf_${rand(34, ALNUM.slice(0, 52))}`, kind: /Hugging Face/ },
  { name: 'Databricks token', text: `dapi${rand(32, HEX)}`, kind: /Databricks/ },
  { name: 'Shopify access token', text: `shpat_${rand(32, HEX)}`, kind: /Shopify/ },
  { name: 'Linear API key', text: `lin_api_${rand(40)}`, kind: /Linear/ },
  { name: 'Groq API key', text: `gsk_${rand(52)}`, kind: /Groq/ },
  { name: 'HashiCorp Vault token', text: `VAULT_TOKEN is hvs.${rand(95, URLSAFE)}`, kind: /Vault|secret/ },
  { name: 'Grafana service-account token', text: `glsa_${rand(32)}_${rand(8, HEX)}`, kind: /Grafana/ },
  { name: 'Docker Hub access token', text: `dckr_pat_${rand(27, URLSAFE)}`, kind: /Docker/ },
  { name: 'DigitalOcean token', text: `dop_v1_${rand(64, HEX)}`, kind: /DigitalOcean/ },
  { name: 'Stripe webhook secret', text: `STRIPE webhook whsec_${rand(32)}`, kind: /Stripe/ },
  { name: 'Notion token', text: `ntn_${rand(11, '0123456789')}${rand(35)}`, kind: /Notion/ },
  { name: 'Grafana cloud token', text: `glc_${rand(60, B64)}==`, kind: /Grafana/ },
  { name: 'Figma token', text: `figd_${rand(40, URLSAFE)}`, kind: /Figma/ },
  { name: 'Vercel token', text: `vcp_${rand(24)}`, kind: /Vercel/ },
  { name: 'Sentry token', text: `SENTRY_AUTH_TOKEN is sntrys_${rand(64, B64)}`, kind: /Sentry|secret/ },
  { name: 'Postman API key', text: `PMAK-${rand(24, HEX)}-${rand(34, HEX)}`, kind: /Postman/ },
  { name: 'Tailscale auth key', text: `tskey-auth-${rand(12)}-${rand(30)}`, kind: /Tailscale/ },
  { name: 'age secret key', text: `AGE-SECRET-KEY-1${rand(58, UPPER_DIGITS)}`, kind: /age/ },
  { name: 'Telegram bot token', text: `bot ${rand(10, '0123456789')}:AA${rand(33, URLSAFE)}`, kind: /Telegram/ },
  { name: 'Discord bot token', text: `discord M${rand(23, ALNUM)}.${rand(6, URLSAFE)}.${rand(38, URLSAFE)}`, kind: /Discord/ },
  { name: '1Password service-account token', text: `ops_eyJ${rand(120, URLSAFE)}`, kind: /1Password/ },

  // Passwords in URLs, headers and command lines.
  { name: 'password in a postgres URL', text: 'Connect with postgres://admin:Tr0ub4dor3x@db.internal:5432/app', kind: /URL/ },
  { name: 'password in a mongodb+srv URL', text: `mongodb+srv://app:${rand(16)}@cluster0.example.mongodb.net/prod`, kind: /URL/ },
  { name: 'redis URL with password and no user', text: 'cache at redis://:s3cretPassw0rd@cache.internal:6379/0', kind: /URL/ },
  { name: 'rediss URL with password and no user', text: `rediss://:${rand(20)}@cache.internal:6380`, kind: /URL/ },
  { name: 'Authorization: Basic header', text: `curl -H "Authorization: Basic ${b64(Buffer.from('deploy:Sup3rS3cret!'))}" https://ci.internal/api`, kind: /Authorization/ },
  { name: 'Authorization: Bearer opaque token', text: `send Authorization: Bearer ${rand(32, URLSAFE)} to the API`, kind: /Authorization/ },
  { name: 'Bearer token in a fetch header object', text: `headers: { Authorization: 'Bearer ${rand(40)}' }`, kind: /Authorization/ },
  { name: 'Authorization: token header', text: `Authorization: token ${rand(40, HEX)}`, kind: /Authorization/ },
  { name: 'X-API-Key header', text: `x-api-key: ${rand(32)}`, kind: /API key|secret/ },
  { name: 'curl -u user:password', text: 'curl -u admin:S3cr3tP4ss https://jenkins.internal/api/json', kind: /command-line password/ },
  { name: 'curl --user user:password', text: `curl --user deploy:${rand(14)} https://nexus.internal`, kind: /command-line password/ },
  { name: 'sshpass -p', text: "sshpass -p 'hunter2xyz' ssh root@10.0.0.5", kind: /command-line password/ },
  { name: 'docker login -p', text: `docker login -u ci -p ${rand(20)} registry.internal`, kind: /command-line password/ },
  { name: 'docker login --password', text: 'docker login --password Pa55word99 --username ci', kind: /command-line password/ },
  { name: 'mysql -p glued password', text: 'mysql -u root -pR00tPassw0rd mydb', kind: /command-line password/ },
  { name: 'password=value', text: 'the staging login is password=hunter22', kind: /password/ },
  { name: 'password= in a query string', text: 'GET /login?user=ops&password=W1nter2024!', kind: /password/ },
  { name: 'PGPASSWORD env', text: 'PGPASSWORD=Qq8rLm2Xv psql -h db', kind: /PASSWORD|password/ },
  { name: 'password: in YAML', text: 'db:\n  user: app\n  password: "n0tSoS3cret!"', kind: /password/ },
  { name: '--password flag with a space', text: 'run the migration with --password Zx9Wq2Lm', kind: /password/ },
  { name: 'env assignment of a key', text: `STRIPE_SECRET_KEY=${rand(32)}`, kind: /secret/ },
  { name: 'JSON client_secret', text: `{"client_id": "web", "client_secret": "${rand(32)}"}`, kind: /secret/ },
  { name: 'api_key in JSON', text: `{"api_key": "${rand(32)}"}`, kind: /secret|API/ },
  { name: 'quoted password assignment', text: 'DB_PASSWORD = "hunter2!Xy9"', kind: /password/i },

  // Evasions: the same tokens split, widened or moved to another field.
  { name: 'GitHub token split by zero-width spaces', text: `token ${zwsp(gh())}`, kind: /GitHub/ },
  { name: 'AWS key split by zero-width joiners', text: `AKIA${rand(16, UPPER_DIGITS)}`.split('').join('\u200d'), kind: /AWS/ },
  { name: 'Stripe key with soft hyphens', text: `sk_live_${rand(24)}`.replace(/(.{6})/g, '$1\u00ad'), kind: /Stripe/ },
  { name: 'GitHub token in full-width characters', text: fullWidth(gh()), kind: /GitHub/ },
  { name: 'private key header in full-width characters', text: `${fullWidth(pemBegin('RSA PRIVATE KEY'))}\n${wrap(b64(rsaDer()))}`, kind: /private key/ },
  { name: 'Slack token with a BOM and word joiners', text: `\ufeffxoxb-${rand(11, '0123456789')}\u2060-${rand(13, '0123456789')}-${rand(24)}`, kind: /Slack/ },
  { name: 'GitHub token in the source label', text: 'The build pipeline uses the usual token.', field: 'source', kind: /GitHub/ },
  { name: 'GitHub token in the project path', text: 'Deploys go through the usual pipeline.', field: 'project', kind: /GitHub/ },
  { name: 'AWS key in the project path', text: 'Remember this.', field: 'project', kind: /AWS/ },
];

// The secret for the field shapes: the text above is the content, the secret goes into the field.
const FIELD_SECRETS = new Map<string, string>([
  ['GitHub token in the source label', `ci ${gh()}`],
  ['GitHub token in the project path', `/home/dev/${gh()}`],
  ['AWS key in the project path', `/srv/AKIA${rand(16, UPPER_DIGITS)}/app`],
]);

/** The value of the non-content field a shape puts its secret in. */
export function fieldSecret(shape: Shape): string {
  const v = FIELD_SECRETS.get(shape.name);
  if (v === undefined) throw new Error(`corpus: shape "${shape.name}" has no field secret`);
  return v;
}

/** Ordinary engineering notes that mention credentials without holding one: must be stored. */
export const NEGATIVES: string[] = [
  'Use small focused modules.',
  'password field validation: require at least 12 characters and reject the 10k most common passwords.',
  'Use Bearer auth for the public API; the token comes from the vault as API_TOKEN.',
  'Authorization: Bearer ${API_TOKEN} is added by the fetch wrapper.',
  'Authorization: Bearer <token> (see docs/auth.md)',
  'Authorization header format: Basic base64(user:pass); we switched to OAuth.',
  'The API key lives in the vault as STRIPE_SECRET_KEY; run commands with synaptic run.',
  'API_KEY=${STRIPE_KEY} is read from the environment.',
  'token = process.env.GITHUB_TOKEN',
  'password: <your-password>',
  'password: z.string().min(12) in the signup schema',
  'The primary key is user_id, and the sort key is created_at.',
  'Clone from https://github.com/example/project.git and run npm test.',
  'postgres://user:password@localhost/db is the local placeholder URL.',
  'redis://localhost:6379/0 is the dev cache; no password locally.',
  'curl -u "$USER:$TOKEN" https://api.internal/health',
  'sshpass -p "$SSHPASS" ssh deploy@host reads the password from the environment.',
  'docker login -u ci --password-stdin < token.txt keeps the token off the command line.',
  'Session tokens expire after 30 minutes; refresh_token rotation is on.',
  'request id 123e4567-e89b-12d3-a456-426614174000 was the failing one',
  'fixed in commit 3f9a1c2e4b5d6f708192a3b4c5d6e7f809112233 (cache key collision)',
  `the image digest is sha256:${'9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}`,
  `base64 of the greeting: ${b64(Buffer.from('The quick brown fox jumps over the lazy dog'))}`,
  `base64 of a forty-char text: ${b64(Buffer.from('harmless text of thirty bytes.'))}`,
  `the fixture config is ${b64(Buffer.from(JSON.stringify({ name: 'demo', retries: 3, verbose: true, tags: ['a', 'b'] })))}`,
  'integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg== in the lockfile',
  'MAX_TOKENS = 4096',
  'The password reset flow sends an email with a one-time link.',
  'API keys start with sk- and GitHub tokens with ghp_; never log either.',
  'getUserAccountSettingsFromRemoteCache42 is the slow call in the profile.',
  'commit 3f9a1c2 fixed the cache key collision',
  'token: string is the type of the field, and secret?: boolean marks hidden inputs.',
  'パスワードはボールトに保存します（メモリには残さない）。',
  'Use ＡＢＣ full-width labels only in the Japanese locale.',
  'The memory module lives at /home/dev/projects/synaptic/src/memory/credentials.ts.',
  '-----BEGIN CERTIFICATE----- blocks in fixtures are public certificates, fine to keep.',
  'ssh-ed25519 public keys go in authorized_keys; the private half never leaves the laptop.',
  'mysql -u root -p prompts for the password interactively.',
  `a public certificate body: ${wrap(b64(Buffer.concat([Buffer.from('3082035d30820245a003020102020900', 'hex'), bytes(200)])))}`,
  `the server's public key: ${b64(Buffer.concat([Buffer.from('30820122300d06092a864886f70d01010105000382010f003082010a0282010100', 'hex'), bytes(200)]))}`,
  `an RSA public key (PKCS#1): ${b64(Buffer.concat([Buffer.from('3082010a0282010100', 'hex'), bytes(200)]))}`,
  `ssh-ed25519 ${b64(Buffer.concat([Buffer.from('0000000b7373682d65643235353139000000', 'hex'), Buffer.from([0x20]), bytes(32)]))} dev@laptop`,
  'the sprite sheet is inlined as data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'Bearer tokens are validated by the gateway; Authorization: Bearer is required on /api.',
  'The --password-stdin flag and the --token-file option read secrets from files.',
  'Run curl -u with a netrc file instead of inline credentials.',
];
