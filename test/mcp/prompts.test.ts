import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPrompts } from '../../src/mcp/prompts.ts';
import { GRAPH_TOOLS } from './client-suite.ts';

// A prompt is offered only while the server has every tool its text names: take away any one of
// them and the prompt leaves prompts/list and prompts/get refuses it.

// The graph tools and the change-aware ones prompts may name (assess_pr names get_pr_impact).
const TOOLS = [...GRAPH_TOOLS, 'working_changes_impact', 'predict_impact', 'affected_tests', 'predict_edit', 'plan_rename',
  'time_travel_diff', 'list_prs', 'get_pr_impact', 'triage_prs', 'structural_search', 'audit_sql'];
const ALL = new Set(TOOLS);
const args = (names: string[]) => Object.fromEntries(names.map((n) => [n, n === 'pr_number' ? '7' : 'routing']));

test('every tool a prompt names gates it: without that tool the prompt is not offered', () => {
  const full = createPrompts(() => ALL);
  const listed = full.list();
  assert.deepEqual(listed.map((p) => p.name).sort(), ['assess_pr', 'explain_subsystem', 'onboard', 'trace_flow']);
  for (const prompt of listed) {
    const { text, description } = full.get(prompt.name, args(prompt.arguments.map((a) => a.name)));
    const named = TOOLS.filter((t) => new RegExp(`\\b${t}\\b`).test(`${description}\n${text}`));
    assert.ok(named.length >= 2, `${prompt.name} names its tools`);
    for (const tool of named) {
      const without = createPrompts(() => new Set([...ALL].filter((t) => t !== tool)));
      assert.ok(!without.list().some((p) => p.name === prompt.name), `${prompt.name} is still offered without ${tool}`);
      assert.throws(() => without.get(prompt.name, args(prompt.arguments.map((a) => a.name))), /Unknown prompt/);
    }
  }
});

test('with no tools at all no prompt is offered', () => {
  assert.deepEqual(createPrompts(() => new Set()).list(), []);
});
