import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { extractFixture } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

// Every prompt the running server offers names only tools (and tool parameters, and resources) that
// the same server lists: checked through the SDK client over stdio, on the extracted fixture.

let fx: ReturnType<typeof extractFixture>;
let server: Awaited<ReturnType<typeof connectSdk>>;

before(async () => {
  fx = extractFixture();
  server = await connectSdk(fx.graph, fx.env, { serve: ['--no-freshen'] });
});

after(async () => {
  await server?.close();
  fx?.cleanup();
});

/** A value a user could give each argument (pr_number must be a number). */
function sample(name: string): string {
  return name === 'pr_number' ? '42' : 'routing';
}

test("every prompt's title, description and text name only tools, tool parameters and resources the server lists", async () => {
  const { tools } = await server.client.listTools();
  const toolNames = new Set(tools.map((t) => t.name));
  const parameters = new Set(tools.flatMap((t) => Object.keys((t.inputSchema as { properties?: Record<string, unknown> }).properties ?? {})));
  const { resources } = await server.client.listResources();
  const { resourceTemplates } = await server.client.listResourceTemplates();
  const uris = [...resources.map((r) => r.uri), ...resourceTemplates.map((t) => t.uriTemplate.replace(/\{[^}]*\}.*$/, ''))];
  const { prompts } = await server.client.listPrompts();
  assert.ok(prompts.length > 0, 'the server offers prompts');
  for (const prompt of prompts) {
    const args = Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, sample(a.name)]));
    const got = await server.client.getPrompt({ name: prompt.name, arguments: args });
    const texts = [prompt.title ?? '', prompt.description ?? '', got.description ?? '', ...got.messages.map((m) => (m.content.type === 'text' ? m.content.text : ''))].join('\n');
    // Tool-shaped words (snake_case): each is a listed tool, a parameter of one, or the prompt's own argument.
    const own = new Set(Object.keys(args));
    const unknown = [...new Set(texts.match(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g) ?? [])].filter((w) => !toolNames.has(w) && !parameters.has(w) && !own.has(w));
    assert.deepEqual(unknown, [], `prompt ${prompt.name} names what tools/list does not have:\n${texts}`);
    const named = [...toolNames].filter((t) => new RegExp(`\\b${t}\\b`).test(texts));
    assert.ok(named.length >= 2, `prompt ${prompt.name} names the tools it drives (${named.join(', ')})`);
    for (const uri of texts.match(/synaptic:\/\/[\w/{}-]+/g) ?? []) {
      assert.ok(uris.some((u) => uri === u || uri.startsWith(u)), `prompt ${prompt.name} names resource ${uri}, which the server does not list`);
    }
  }
});

test('assess_pr takes a pull request number only (its text hands the model a shell command)', async () => {
  const ok = await server.client.getPrompt({ name: 'assess_pr', arguments: { pr_number: '#42' } });
  assert.match(ok.messages[0]!.content.type === 'text' ? ok.messages[0]!.content.text : '', /gh pr diff 42 --name-only/);
  await assert.rejects(server.client.getPrompt({ name: 'assess_pr', arguments: { pr_number: '42; rm -rf ~' } }), /pull request number/);
});
