import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PACKAGE_NAME, packageVersion } from '../../src/graph/package.node.ts';
import { extractorVersion } from '../../src/extract/identity.node.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string; bin: Record<string, string> };

test('PACKAGE_NAME is the name package.json publishes; its command stays synaptic, with the package name as an alias', () => {
  assert.equal(PACKAGE_NAME, pkg.name);
  // npx -y synaptic-mcp runs a bin of that name straight from node_modules/.bin (a devDependency) or the
  // global bin folder, without reading the dependency tree or asking the registry.
  assert.deepEqual(pkg.bin, { synaptic: 'dist/cli/main.js', [PACKAGE_NAME]: 'dist/cli/main.js' });
});

test('packageVersion() and extractorVersion() read the version from package.json', () => {
  assert.equal(packageVersion(), pkg.version);
  assert.match(extractorVersion(), new RegExp(`^synaptic-${pkg.version.replaceAll('.', '\\.')}\\+facts\\d+$`));
});
