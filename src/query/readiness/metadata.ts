/**
 * Project metadata rules: what a port or a release needs from the repository root besides code (a
 * lockfile, the runtime version, a license, CI). Reads through a small file interface, so the rules
 * stay pure and browser-safe; readiness/source.node.ts gives the file system one.
 */
import type { RawFinding, ReadinessProfile } from './types.ts';

/** Files at the project root (paths relative to it, `/` separated). */
export interface ProjectFiles {
  /** The root's own entries (names only). */
  list(dir: string): string[];
  /** A small text file's content, or undefined when absent or unreadable. */
  read(path: string): string | undefined;
}

const NODE_LOCKS = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock'];
const PY_LOCKS = ['poetry.lock', 'uv.lock', 'pdm.lock', 'Pipfile.lock', 'pylock.toml'];
const CI_FILES = ['.gitlab-ci.yml', '.travis.yml', 'azure-pipelines.yml', 'Jenkinsfile', 'bitbucket-pipelines.yml', '.drone.yml', 'appveyor.yml', '.cirrus.yml'];
const CI_DIRS: Array<[string, RegExp]> = [['.github/workflows', /\.ya?ml$/], ['.circleci', /^config\.ya?ml$/], ['.buildkite', /./], ['.woodpecker', /./], ['.forgejo/workflows', /\.ya?ml$/], ['.gitea/workflows', /\.ya?ml$/]];

function finding(rule_id: string, severity: RawFinding['severity'], location: string, title: string, detail: string, remediation: string, evidence: string[], confidence = 0.9): RawFinding {
  return { rule_id, severity, category: 'metadata', title, detail, location, evidence, remediation, confidence, subsystem: 'project' };
}

function json(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function hasDeps(pkg: Record<string, unknown>): boolean {
  return ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'].some((k) => {
    const d = pkg[k];
    return d !== null && typeof d === 'object' && Object.keys(d).length > 0;
  });
}

/** The metadata findings of one project root, for the ecosystems the profile covers. */
export function metadataFindings(files: ProjectFiles, profile: ReadinessProfile): RawFinding[] {
  const root = new Set(files.list(''));
  const out: RawFinding[] = [];
  const node = profile === 'auto' || profile === 'generic' || profile === 'typescript';
  const py = profile === 'auto' || profile === 'generic' || profile === 'python';
  const go = profile === 'auto' || profile === 'generic' || profile === 'go';
  const rust = profile === 'auto' || profile === 'generic' || profile === 'rust';
  const licensed: string[] = [];

  const pkg = root.has('package.json') ? json(files.read('package.json')) : undefined;
  if (pkg && typeof pkg.license === 'string' && pkg.license && pkg.license !== 'UNLICENSED') licensed.push('package.json "license"');
  if (node && pkg) {
    if (hasDeps(pkg) && !NODE_LOCKS.some((l) => root.has(l))) {
      out.push(finding('missing_lockfile', 'medium', 'package.json', 'No lockfile next to package.json',
        'package.json declares dependencies but no package-lock.json, yarn.lock, pnpm-lock.yaml or bun.lock pins them: two installs can resolve different versions.',
        'Commit the lockfile of the package manager you use (npm install writes package-lock.json), and install with npm ci in CI.', ['package.json: dependencies without a lockfile']));
    }
    const engines = pkg.engines as Record<string, unknown> | undefined;
    if (!engines || typeof engines !== 'object' || typeof engines.node !== 'string') {
      out.push(finding('missing_engines', 'low', 'package.json', 'package.json does not say which Node.js it needs',
        'Without "engines": { "node": ... } an install on an older or newer runtime proceeds silently and fails at run time.',
        'Add "engines": { "node": ">=20" } (the oldest version you test on) to package.json.', ['package.json: no engines.node']));
    }
  }

  const pyproject = root.has('pyproject.toml') ? files.read('pyproject.toml') : undefined;
  if (pyproject !== undefined && /^\s*license\s*=/m.test(pyproject)) licensed.push('pyproject.toml license');
  if (py && pyproject !== undefined) {
    const declares = /^\s*dependencies\s*=\s*\[\s*[^\]\s]/m.test(pyproject) || /^\[tool\.poetry\.dependencies\]/m.test(pyproject);
    const requirements = [...root].some((f) => /^requirements.*\.txt$/.test(f));
    if (declares && !PY_LOCKS.some((l) => root.has(l)) && !requirements) {
      out.push(finding('missing_lockfile', 'medium', 'pyproject.toml', 'No lockfile next to pyproject.toml',
        'pyproject.toml declares dependencies but no poetry.lock, uv.lock, pdm.lock or pinned requirements file fixes their versions.',
        'Commit the lockfile of your tool (uv lock, poetry lock, pdm lock) or a pinned requirements.txt.', ['pyproject.toml: dependencies without a lockfile'], 0.8));
    }
    if (/^\[project\]/m.test(pyproject) && !/^\s*requires-python\s*=/m.test(pyproject)) {
      out.push(finding('missing_engines', 'low', 'pyproject.toml', 'pyproject.toml does not say which Python it needs',
        'Without requires-python an install on an unsupported interpreter proceeds and fails at import time.',
        'Add requires-python = ">=3.10" (the oldest version you test on) under [project].', ['pyproject.toml: [project] without requires-python']));
    }
  }
  if (py && root.has('Pipfile') && !root.has('Pipfile.lock')) {
    out.push(finding('missing_lockfile', 'medium', 'Pipfile', 'No Pipfile.lock next to Pipfile', 'The Pipfile names dependencies but nothing pins them.', 'Run pipenv lock and commit Pipfile.lock.', ['Pipfile without Pipfile.lock']));
  }

  const gomod = root.has('go.mod') ? files.read('go.mod') : undefined;
  if (go && gomod !== undefined) {
    if (/^require\b/m.test(gomod) && !root.has('go.sum')) {
      out.push(finding('missing_lockfile', 'medium', 'go.mod', 'go.mod requires modules but there is no go.sum',
        'Without go.sum the module checksums are not verified and builds in a clean checkout fail with "missing go.sum entry".',
        'Run go mod tidy and commit go.sum.', ['go.mod: require without go.sum']));
    }
    if (!/^go\s+\d/m.test(gomod)) {
      out.push(finding('missing_engines', 'low', 'go.mod', 'go.mod has no go directive', 'The toolchain version the module needs is not stated.', 'Add a go 1.22 (or your minimum) line to go.mod.', ['go.mod: no go directive']));
    }
  }

  const cargo = root.has('Cargo.toml') ? files.read('Cargo.toml') : undefined;
  if (cargo !== undefined && /^\s*license(-file)?\s*=/m.test(cargo)) licensed.push('Cargo.toml license');
  if (rust && cargo !== undefined && !root.has('Cargo.lock')) {
    const binary = /^\[\[bin\]\]/m.test(cargo) || files.list('src').includes('main.rs');
    if (binary) {
      out.push(finding('missing_lockfile', 'medium', 'Cargo.toml', 'A binary crate without Cargo.lock', 'The crate builds an executable, but no Cargo.lock pins its dependency versions.', 'Commit Cargo.lock (cargo generate-lockfile).', ['Cargo.toml: a binary target without Cargo.lock']));
    }
  }

  const licenseFile = [...root].find((f) => /^(?:LICEN[CS]E|COPYING|UNLICENSE)(?:[.-]|$)/i.test(f));
  if (!licenseFile && !licensed.length && (pkg || pyproject !== undefined || gomod !== undefined || cargo !== undefined)) {
    const priv = pkg?.private === true;
    out.push(finding('missing_license', priv ? 'low' : 'medium', licenseFile ?? (pkg ? 'package.json' : 'project root'), 'No license',
      'There is no LICENSE / COPYING file at the root and no license field in the manifest: others cannot legally reuse or redistribute the code.',
      'Add a LICENSE file (and the SPDX id in the manifest\'s license field).', ['no LICENSE or COPYING file at the root; no license field in the manifest'], priv ? 0.6 : 0.9));
  }

  const ci = CI_FILES.find((f) => root.has(f)) ?? CI_DIRS.find(([dir, re]) => files.list(dir).some((f) => re.test(f)))?.[0];
  if (!ci) {
    out.push(finding('missing_ci', 'low', 'project root', 'No CI configuration',
      'No GitHub Actions workflow, GitLab CI, CircleCI, Azure Pipelines, Jenkinsfile or similar was found: nothing builds and tests each change.',
      'Add a workflow that installs from the lockfile, builds and runs the tests (for example .github/workflows/ci.yml).', ['no .github/workflows/*.yml, .gitlab-ci.yml, .circleci/config.yml, Jenkinsfile, ...'], 0.8));
  }
  return out;
}
