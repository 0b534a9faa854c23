import { createInterface } from 'node:readline/promises';
import { grantRefusal, HUMAN_FLAG, isYes } from '../vault/index.ts';

/** Thrown when a grant is refused or not confirmed; exit code 1, nothing changed. */
export class ApprovalError extends Error {
  override name = 'ApprovalError';
}

/** Reads one line typed on the terminal (prompt on stderr: stdout may be a pipe). */
async function askOnTerminal(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/**
 * Lets a grant of secrets go ahead only for a person: refused without a terminal or in an agent's
 * session (unless `human`, the person's HUMAN_FLAG), else after typing "yes" to `question`.
 * `action` completes "Cannot …"; `what` says what the grant gives, in one sentence.
 */
export async function requireApproval(action: string, what: string, question: string, human: boolean): Promise<void> {
  const refusal = grantRefusal(action, what, { terminal: process.stdin.isTTY === true, env: process.env, human });
  if (refusal) throw new ApprovalError(refusal);
  if (human) return;
  const answer = await askOnTerminal(`${what} ${question} Type yes to approve: `);
  if (!isYes(answer)) throw new ApprovalError(`Cannot ${action}: not approved (only "yes" approves; ${HUMAN_FLAG} skips the question for a person's script). Nothing was changed`);
}
