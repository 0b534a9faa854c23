/** One `synaptic <name>` subcommand. `run` returns the process exit code. */
export interface Command {
  name: string;
  /** Other names that run the same command (e.g. `mcp` for `serve`). */
  aliases?: string[];
  /** One line for `synaptic --help`. */
  summary: string;
  /** Full usage text for `synaptic <name> --help`. */
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** A bad invocation: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
