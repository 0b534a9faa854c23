import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, fstatSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive, type Mesh } from './mesh.ts';
import type { MeshStore, WorkerRecord, WorkerState } from './store.ts';

/** A worker the owner configured (`synaptic settings worker NAME -- COMMAND...`). */
export interface WorkerConfig {
  /** argv; an argument "{prompt}" is replaced by the prompt (else the prompt, when given, is appended). */
  command: string[];
  /** Longest run, in seconds; the worker is killed at it and the kill reported. */
  limitSeconds: number;
}

export interface WorkerSettings {
  /** Whether the owner allows sessions to start workers (`synaptic settings workers on`). */
  enabled(): boolean;
  /** The configured workers by name. */
  configs(): Record<string, WorkerConfig>;
}

/** Signals that end a server by default: while a worker runs, they stop it first. */
const EXIT_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** Grace between SIGTERM and SIGKILL when a worker is stopped or hits its limit. */
const KILL_GRACE_MS = 2000;
/** Bytes of a worker's output quoted in its end report. */
const TAIL_BYTES = 1200;

interface Running {
  record: WorkerRecord;
  child: ChildProcess;
  timer: NodeJS.Timeout;
  ending?: WorkerState;
  done: Promise<void>;
}

function tail(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const len = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    return buf.toString('utf8').replace(/^[\s\S]*?\n/, size > len ? '' : '$&');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Sends `signal` to the worker's process group (it runs detached, so its children go too). */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Background workers of one session: commands the owner configured, started in the project folder in
 * their own process group with a time limit, stdout and stderr captured to `<data dir>/mesh/workers/`.
 * A worker's end (exit, failure, limit, stop) is recorded in the store and sent to the starting
 * agent's inbox. Every worker still running is killed when the session closes, and synchronously on
 * process exit.
 */
export class WorkerManager {
  private readonly running = new Map<number, Running>();
  private readonly onExit = (): void => {
    for (const r of this.running.values()) killGroup(r.child.pid, 'SIGKILL');
  };
  /** A signal that would end the server ends its workers first, then the server as it would have. */
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.onExit();
    this.unhook();
    process.kill(process.pid, signal);
  };
  private hooked = false;

  private hook(): void {
    if (this.hooked) return;
    this.hooked = true;
    for (const s of EXIT_SIGNALS) process.once(s, this.onSignal);
  }

  private unhook(): void {
    if (!this.hooked) return;
    this.hooked = false;
    for (const s of EXIT_SIGNALS) process.off(s, this.onSignal);
  }

  constructor(
    private readonly mesh: Mesh,
    private readonly store: MeshStore,
    private readonly settings: WorkerSettings,
    private readonly logDir: string,
  ) {
    process.on('exit', this.onExit);
  }

  /** Starts configured worker `worker`; resolves once the process runs (or fails with why it could not). */
  async start(worker: string, prompt: string | undefined, limitSeconds: number | undefined, cwd: string): Promise<WorkerRecord> {
    const me = this.mesh.registration;
    if (!me) throw new Error('Cannot start a worker: this session has no mesh name yet; call mesh_register first');
    if (!this.settings.enabled()) throw new Error('Cannot start a worker: starting workers is off (the owner enables it with `synaptic settings workers on`)');
    const configs = this.settings.configs();
    const config = configs[worker];
    if (!config) {
      const names = Object.keys(configs);
      throw new Error(`Cannot start worker "${worker}": no worker of that name is configured (${names.length ? `configured: ${names.join(', ')}` : 'none is; the owner adds one with `synaptic settings worker NAME -- COMMAND...`'})`);
    }
    const limit = Math.max(1, Math.min(limitSeconds ?? config.limitSeconds, config.limitSeconds));
    const argv = config.command.map((a) => (prompt !== undefined ? a.replaceAll('{prompt}', prompt) : a));
    if (prompt !== undefined && !config.command.some((a) => a.includes('{prompt}'))) argv.push(prompt);
    mkdirSync(this.logDir, { recursive: true, mode: 0o700 });
    const log = join(this.logDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${worker}-${process.pid}.log`);
    const fd = openSync(log, 'a', 0o600);
    let child: ChildProcess;
    try {
      child = spawn(argv[0]!, argv.slice(1), { cwd, detached: true, stdio: ['ignore', fd, fd], env: { ...process.env, SYNAPTIC_MESH_OWNER: me.name } });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new Error(
        `Cannot start worker "${worker}": ${code === 'ENOENT' ? `its command "${argv[0]}" was not found` : code === 'EACCES' ? `its command "${argv[0]}" is not executable` : (err as Error).message}; ` +
          'the owner fixes it with `synaptic settings worker ' + worker + ' -- COMMAND...`',
      );
    } finally {
      closeSync(fd);
    }
    const now = Date.now();
    const record = await this.store.addWorker(me.project, {
      worker,
      owner: me.name,
      ownerSession: this.mesh.session,
      host: hostname(),
      pid: child.pid!,
      state: 'running',
      exitCode: null,
      log,
      started: now,
      ended: null,
      limitMs: limit * 1000,
    });
    const run: Running = {
      record,
      child,
      timer: setTimeout(() => this.kill(run, 'timed-out'), limit * 1000),
      done: new Promise((resolve) => child.once('exit', (code, signal) => void this.ended(run, code, signal, me).finally(resolve))),
    };
    run.timer.unref();
    this.running.set(record.id, run);
    this.hook();
    return record;
  }

  private kill(run: Running, why: WorkerState): void {
    if (run.ending) return;
    run.ending = why;
    killGroup(run.child.pid, 'SIGTERM');
    setTimeout(() => killGroup(run.child.pid, 'SIGKILL'), KILL_GRACE_MS).unref();
  }

  private async ended(run: Running, code: number | null, signal: NodeJS.Signals | null, owner: { project: string; name: string }): Promise<void> {
    clearTimeout(run.timer);
    this.running.delete(run.record.id);
    if (this.running.size === 0) this.unhook();
    killGroup(run.child.pid, 'SIGKILL'); // anything it left behind in its group
    const state: WorkerState = run.ending ?? (code === 0 ? 'exited' : 'failed');
    const secs = ((Date.now() - run.record.started) / 1000).toFixed(1);
    const how =
      state === 'timed-out'
        ? `was killed at its ${run.record.limitMs / 1000} s limit`
        : state === 'stopped'
          ? 'was stopped'
          : signal
            ? `ended by ${signal}`
            : `exited with code ${code}`;
    try {
      await this.store.endWorker(owner.project, run.record.id, state, code, Date.now());
      const out = tail(run.record.log).trim();
      const body = `worker ${run.record.id} (${run.record.worker}) ${how} after ${secs} s; output in ${run.record.log}${out ? `\n--- last output ---\n${out}` : ''}`;
      await this.store.send({ project: owner.project, from: `worker-${run.record.id}`, kind: 'worker', to: [owner.name], body: body.slice(0, 8000), now: Date.now(), inboxCap: Number.MAX_SAFE_INTEGER });
    } catch {
      // the store closed with the session: the record stays 'running' and the log holds the output
    }
  }

  /** Stops a worker this session started (SIGTERM, then SIGKILL after a grace); resolves when it ended. */
  async stop(id: number): Promise<WorkerRecord> {
    const run = this.running.get(id);
    if (!run) {
      const me = this.mesh.registration;
      const known = me ? (await this.store.workers(me.project, 200)).find((w) => w.id === id) : undefined;
      throw new Error(
        `Cannot stop worker ${id}: ${!known ? 'this project has no such worker' : known.state !== 'running' ? `it already ${known.state === 'timed-out' ? 'timed out' : known.state}` : `it was started by "${known.owner}" in another session; ask it to stop it`}`,
      );
    }
    this.kill(run, 'stopped');
    await run.done;
    return { ...run.record, state: 'stopped', ended: Date.now() };
  }

  /**
   * Ends the workers of `project` on this machine whose starting session is gone without stopping
   * them (its server was SIGKILLed: nothing ran to kill them): their process groups are killed and
   * recorded stopped. Returns their ids.
   */
  async reap(project: string): Promise<number[]> {
    const host = hostname();
    const now = Date.now();
    const agents = await this.store.agents(project, now);
    const reaped: number[] = [];
    for (const w of await this.store.workers(project, 200)) {
      if (w.state !== 'running' || w.host !== host || this.running.has(w.id)) continue;
      const owner = agents.find((a) => a.session === w.ownerSession);
      if (owner && (owner.host !== host || processAlive(owner.pid))) continue;
      killGroup(w.pid, 'SIGKILL');
      await this.store.endWorker(project, w.id, 'stopped', null, now);
      reaped.push(w.id);
    }
    return reaped;
  }

  /** Kills every running worker and waits for their ends to be recorded (session close). */
  async close(): Promise<void> {
    const runs = [...this.running.values()];
    for (const r of runs) {
      r.ending ??= 'stopped';
      killGroup(r.child.pid, 'SIGKILL');
    }
    await Promise.all(runs.map((r) => r.done));
    this.unhook();
    process.off('exit', this.onExit);
  }
}
