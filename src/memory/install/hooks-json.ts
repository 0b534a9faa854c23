import { appendElement, appendMember, member, parseJsonText, removeSpan, type JsonNode } from './json-text.ts';
import { expectKind, type JsonPiece } from './json-install.ts';
import { shellCommand, type LaunchCommand } from './options.ts';

/**
 * Hook entries in the `hooks` object both Claude Code (settings.json) and Codex (hooks.json) read:
 * `{ "hooks": { "<Event>": [ { "hooks": [ { "type": "command", "command": "..." } ] } ] } }`.
 */
export interface HookSpec {
  event: string;
  /** The synaptic subcommand the hook runs. */
  sub: 'session' | 'compact';
  args: readonly string[];
}

/** A hook entry belongs to us when its command runs synaptic's `session`/`compact`. */
export function isOurHookCommand(command: string, sub: 'session' | 'compact'): boolean {
  return new RegExp(`synaptic[^\\s"']*["']?(?:\\s+[^\\s]*main\\.js["']?)?\\s+${sub}\\b`).test(command);
}

function hookGroupIsOurs(group: JsonNode, sub: 'session' | 'compact', expected: string): boolean {
  const hooks = member(group, 'hooks')?.value;
  if (hooks?.kind !== 'array') return false;
  return hooks.elements!.some((h) => {
    const cmd = member(h, 'command')?.value;
    return cmd?.kind === 'string' && (cmd.value === expected || isOurHookCommand(cmd.value!, sub));
  });
}

/** One JsonPiece per hook: a group appended to `hooks.<event>` unless one of ours is there. */
export function hookPieces(specs: readonly HookSpec[], launch: LaunchCommand): JsonPiece[] {
  return specs.map((h) => {
    const command = shellCommand(launch, h.args);
    const group = { hooks: [{ type: 'command', command }] };
    return {
      what: h.event,
      label: `${h.event} hook`,
      insertion(file, text, root) {
        const hooks = expectKind(file, member(root, 'hooks')?.value, 'object', 'hooks');
        if (!hooks) return appendMember(text, root, 'hooks', { [h.event]: [group] });
        const list = expectKind(file, member(hooks, h.event)?.value, 'array', `hooks.${h.event}`);
        if (!list) return appendMember(text, hooks, h.event, [group]);
        if (list.elements!.some((g) => hookGroupIsOurs(g, h.sub, command))) return null;
        return appendElement(text, list, group);
      },
      removeByShape(text) {
        const list = member(member(parseJsonText(text), 'hooks')?.value, h.event)?.value;
        if (list?.kind !== 'array') return text;
        const i = list.elements!.findIndex((g) => hookGroupIsOurs(g, h.sub, command));
        return i >= 0 ? removeSpan(text, list.elements!, i, list) : text;
      },
    };
  });
}
