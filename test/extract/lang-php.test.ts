import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

test('PHP: namespaces, classes, use imports, $this, static and new', async () => {
  const g = await linkSources({
    'src/Repo.php': '<?php\nnamespace App\\Data;\n\nclass Repo {\n  public function __construct() {}\n  public function save() {}\n  public static function open() { return new Repo(); }\n}\n',
    'src/Service.php': '<?php\nnamespace App;\n\nuse App\\Data\\Repo;\n\n/** Runs things. */\nclass Service extends Base implements Runs {\n  private function helper() {}\n  public function run() {\n    $r = new Repo();\n    $r->save();\n    Repo::open();\n    $this->helper();\n    call_user_func("strlen");\n  }\n}\n',
  });
  const node = (id: string) => g.nodes.find((n) => n.id === id);
  assert.equal(node('src/Service.php#App\\Service'.replace('App\\', ''))?.kind ?? node('src/Service.php#Service')?.kind, 'class');
  const calls = g.edges('calls');
  const svc = g.nodes.find((n) => n.label.endsWith('Service.run'))!.id;
  const repo = (m: string) => g.nodes.find((n) => n.source_file === 'src/Repo.php' && n.label.endsWith(`Repo.${m}`))!.id;
  for (const t of [repo('__construct'), repo('save'), repo('open'), g.nodes.find((n) => n.label.endsWith('Service.helper'))!.id])
    assert.ok(calls.includes(`${svc} -> ${t}`), t);
  assert.equal(node(svc)?.kind, 'method');
  assert.deepEqual(g.hazards.map((h) => h.kind), ['reflection']);
});
