/**
 * A test hook for crash consistency (test/extract/crash-consistency.test.ts): with
 * `SYNAPTIC_TEST_CRASH_AT=<name>` a run kills itself (SIGKILL: no cleanup, no exit handlers) right
 * after the output `<name>` (its path in the output folder, e.g. `graph.json`, `.facts/07.cbor`) is
 * in place; a trailing `*` matches by prefix (`.facts/*`: the first shard written). Unset, it is one
 * environment read per output file.
 */
export function crashPoint(name: string): void {
  const at = process.env.SYNAPTIC_TEST_CRASH_AT;
  if (!at) return;
  if (at === name || (at.endsWith('*') && name.startsWith(at.slice(0, -1)))) process.kill(process.pid, 'SIGKILL');
}
