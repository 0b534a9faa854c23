import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSettings, SkillLibrary } from '../../src/skills/index.ts';
import { cli, sandbox } from '../vault/helpers.ts';

test('synaptic settings learn and skills list|show|approve|reject drive the library', async () => {
  const sb = sandbox();
  try {
    const ok = (args: string[], cwd = sb.project): string => {
      const r = cli(sb, args, { cwd });
      assert.equal(r.status, 0, `synaptic ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    assert.match(ok(['settings', 'learn', 'on']), /learn on/);
    assert.equal(readSettings(sb.env).learn, true);
    assert.equal(cli(sb, ['settings', 'learn', 'maybe']).status, 2);
    const lib = new SkillLibrary(sb.env);
    await lib.teach({ name: 'bisect-flakes', description: 'Find a flaky test', instructions: 'Run it 50 times.', scope: 'project', project: sb.project, note: 'saved a day' });
    await lib.teach({ name: 'house-style', description: 'Global style', instructions: 'Small modules.', scope: 'global', project: null, note: 'n' });
    const list = ok(['skills', 'list']);
    assert.match(list, /^house-style {2}pending {2}global/m);
    assert.match(list, new RegExp(`^bisect-flakes {2}pending {2}${sb.project}`, 'm'));
    const shown = ok(['skills', 'show', 'bisect-flakes'], join(sb.project, 'sub'));
    assert.match(shown, /# note: saved a day/);
    assert.match(shown, /---\nname: bisect-flakes\ndescription: "Find a flaky test"\n---\n\nRun it 50 times\.\n$/);
    assert.match(ok(['skills', 'approve', 'bisect-flakes']), /Approved bisect-flakes: wrote .*\.claude\/skills\/bisect-flakes\/SKILL\.md/);
    assert.ok(existsSync(join(sb.project, '.claude/skills/bisect-flakes/SKILL.md')));
    ok(['skills', 'approve', 'house-style', '--global']);
    assert.match(readFileSync(join(sb.home, '.claude/skills/house-style/SKILL.md'), 'utf8'), /^---\nname: house-style\n/);
    assert.match(ok(['skills', 'reject', 'house-style']), /Rejected house-style: removed /);
    assert.ok(!existsSync(join(sb.home, '.claude/skills/house-style/SKILL.md')));
    assert.ok(!ok(['skills', 'list']).includes('house-style'));
    assert.match(ok(['skills', 'list', '--all']), /house-style {2}rejected/);
    const missing = cli(sb, ['skills', 'show', 'nope']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /Cannot find skill "nope"/);
    assert.match(ok(['settings', 'learn', 'off']), /learn off/);
  } finally {
    sb.cleanup();
  }
});
