/** Skill names as Claude Code accepts them: lowercase letters, digits and single hyphens, at most 64. */
export const SKILL_NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SKILL_NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const INSTRUCTIONS_MAX = 100_000;

/** TypeError unless `name` is a valid skill name. */
export function checkSkillName(name: string): void {
  if (name.length > SKILL_NAME_MAX || !SKILL_NAME_RE.test(name)) {
    throw new TypeError(`Cannot use skill name "${name}": use lowercase letters, digits and hyphens (at most ${SKILL_NAME_MAX})`);
  }
}

/** TypeError unless `description` is one non-empty line of printable text. */
export function checkDescription(description: string): void {
  if (description.trim() === '') throw new TypeError('Cannot store skill: the description is empty');
  if (/[\u0000-\u001f\u007f]/.test(description)) throw new TypeError('Cannot store skill: the description must be one line');
  if (description.length > DESCRIPTION_MAX) throw new TypeError(`Cannot store skill: the description exceeds ${DESCRIPTION_MAX} characters`);
}

/**
 * TypeError unless `instructions` is non-empty Markdown without frontmatter of its own: Synaptic writes
 * the frontmatter, so a model cannot add keys or a name that disagrees with the skill's folder.
 */
export function checkInstructions(instructions: string): void {
  if (instructions.trim() === '') throw new TypeError('Cannot store skill: the instructions are empty');
  if (instructions.length > INSTRUCTIONS_MAX) throw new TypeError(`Cannot store skill: the instructions exceed ${INSTRUCTIONS_MAX} characters`);
  if (/^\uFEFF?\s*---[ \t]*\r?\n/.test(instructions)) {
    throw new TypeError('Cannot store skill: the instructions start with a "---" frontmatter block; send only the Markdown body (Synaptic writes the frontmatter from name and description)');
  }
}

/** The SKILL.md text: frontmatter written here from `name` and `description`, then the body. */
export function renderSkillFile(name: string, description: string, instructions: string): string {
  checkSkillName(name);
  checkDescription(description);
  // A JSON string is a valid YAML double-quoted scalar, so no description can break out of its line.
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${instructions.replace(/\s+$/, '')}\n`;
}
