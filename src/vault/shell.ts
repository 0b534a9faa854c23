import type { Shell } from './status.ts';

/** A shell word that reads back as exactly `value` in bash and zsh (single quotes; `'` as `'\''`). */
export function quotePosix(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A fish word that reads back as exactly `value` (inside single quotes fish unescapes `\\` and `\'`). */
export function quoteFish(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** One line that sets an exported variable in `shell`. */
export function exportLine(shell: Shell, name: string, value: string): string {
  return shell === 'fish' ? `set -gx ${name} ${quoteFish(value)}` : `export ${name}=${quotePosix(value)}`;
}

/** One line that removes a variable in `shell`. */
export function unsetLine(shell: Shell, name: string): string {
  return shell === 'fish' ? `set -e ${name}` : `unset ${name}`;
}

/**
 * The snippet a user adds to their shell's startup file so every prompt re-evaluates
 * `synaptic env` for the current folder (prints no values itself).
 */
export function hookSnippet(shell: Shell, command = 'synaptic'): string {
  switch (shell) {
    case 'bash':
      return [
        '_synaptic_hook() { local s=$?; eval "$(' + command + ' env --shell bash 2>/dev/null)"; return $s; }',
        'case ";${PROMPT_COMMAND[*]:-};" in *";_synaptic_hook;"*) ;; *) PROMPT_COMMAND="_synaptic_hook${PROMPT_COMMAND:+;$PROMPT_COMMAND}" ;; esac',
      ].join('\n');
    case 'zsh':
      return [
        '_synaptic_hook() { eval "$(' + command + ' env --shell zsh 2>/dev/null)"; }',
        'autoload -Uz add-zsh-hook',
        'add-zsh-hook precmd _synaptic_hook',
      ].join('\n');
    case 'fish':
      return [
        'function __synaptic_hook --on-event fish_prompt',
        '    ' + command + ' env --shell fish 2>/dev/null | source',
        'end',
      ].join('\n');
  }
}
