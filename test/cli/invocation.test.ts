import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synapticCommand } from '../../src/cli/invocation.ts';

test('synapticCommand() is npx -y synaptic-mcp under npx (npm_command=exec), else synaptic', () => {
  assert.equal(synapticCommand({ npm_command: 'exec' }), 'npx -y synaptic-mcp');
  assert.equal(synapticCommand({}), 'synaptic');
  assert.equal(synapticCommand({ npm_command: 'run-script' }), 'synaptic', 'an npm script has node_modules/.bin on PATH');
});
