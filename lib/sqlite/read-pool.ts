import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { RowType } from "../rows";

// SQLite reads off the event loop. better-sqlite3 is synchronous: a search that takes 400 ms
// on the main thread holds up every other request, health checks included, for those 400 ms.
// Here each read runs on one of a few worker threads, each with its own read-only connection
// (WAL lets them read beside the writer), one read per worker at a time, the rest queued.
// A read that outlives its budget is answered with an error at once; its worker is replaced,
// since SQLite offers no way to interrupt it from here.

export class ReadTimeoutError extends Error {
  constructor(readonly budgetMs: number) {
    super(`The query took longer than ${budgetMs} ms.`);
    this.name = "ReadTimeoutError";
  }
}

export class ReadQueueFullError extends Error {
  constructor() {
    super("Too many reads are waiting for the database.");
    this.name = "ReadQueueFullError";
  }
}

/** Words' places in the word bits named, each of `terms` a list of places of which a row holds one, as of `version`. */
export interface HeldBits {
  name: string;
  version: number;
  terms: number[][];
}

/**
 * What a job asks of its reader beside its statement (read-worker.mjs): a ranked page (its
 * matches narrowed, where `held` is given, to those holding a word of each of `terms`, by the
 * places of those words in the word bits named, of the version given; or, where `whole` is
 * given, no statement run and the matches found by the bits alone), ranks to read, a word's rows
 * to read into its bits, or a plain read whose rows the reader decodes as `kinds` says
 * (columns.mjs).
 */
export type JobKind =
  | {
      ranked: {
        name: string;
        offset: number;
        limit: number;
        bound: number;
        version: string;
        rows?: { sql: string; values: unknown[]; kinds?: Kinds };
        held?: HeldBits;
        whole?: HeldBits;
      };
    }
  | { ranks: { highest: string; version: string; most: number } }
  | { bits: { into: Int32Array; version: string } }
  | { kinds: Kinds };

/** How a read's rows are decoded where they are read (columns.mjs): [column, kind] pairs. */
export type Kinds = RowType<unknown>["kinds"];

interface Job {
  sql: string;
  values: unknown[];
  kind?: JobKind;
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The worker has opened the database; until then a read given to it waits, unbudgeted. */
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

export interface ReadPoolOptions {
  file: string;
  size: number;
  budgetMs: number;
  busyTimeoutMs: number;
  maxQueue: number;
  /** How much of the database file each reader maps into memory (SQLite's mmap_size); 0: none. */
  mmapBytes?: number;
}

const WORKER_FILE = path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "sqlite", "read-worker.mjs");

export class ReadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  /** Ranks given to every reader, the ones started later included (install). */
  private readonly installed = new Map<string, object>();

  constructor(private readonly options: ReadPoolOptions) {
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn());
  }

  run(sql: string, values: unknown[], kind?: JobKind): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      if (this.queue.length >= this.options.maxQueue) return reject(new ReadQueueFullError());
      this.queue.push({ sql, values, kind, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Gives every reader, now and later, a table's ranks under `name` (read-worker.mjs), in
   * place of those it held: arrays of shared memory, which each reader sees without a copy.
   */
  install(name: string, ranks: object): void {
    const install = { ...ranks, name };
    this.installed.set(name, install);
    for (const slot of this.slots) slot.worker.postMessage({ install });
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const job of this.queue.splice(0)) job.reject(new Error("The database readers were closed."));
    await Promise.all(
      slots.map((slot) => {
        slot.worker.removeAllListeners();
        slot.job?.reject(new Error("The database readers were closed."));
        return slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_FILE, {
      workerData: { file: this.options.file, busyTimeoutMs: this.options.busyTimeoutMs, mmapBytes: this.options.mmapBytes ?? 0 },
    });
    // An idle worker must not keep a command-line process alive; a busy one must.
    worker.unref();
    for (const install of this.installed.values()) worker.postMessage({ install });
    const slot: Slot = { worker, ready: false };
    worker.on("message", (message: { ready?: true; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      if (message.ready) {
        slot.ready = true;
        if (slot.job) this.startBudget(slot);
        return;
      }
      const job = this.finish(slot);
      if (!job) return;
      if (message.error) job.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else job.resolve(message.rows ?? []);
    });
    worker.on("error", (error) => this.replace(slot, error));
    worker.on("exit", (code) => this.replace(slot, new Error(`A database reader stopped (exit code ${code}).`)));
    return slot;
  }

  private finish(slot: Slot): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
    slot.worker.unref();
    queueMicrotask(() => this.dispatch());
    return job;
  }

  /** Swaps a dead or stuck worker for a new one, failing the read it held. */
  private replace(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    const job = this.finish(slot);
    slot.worker.removeAllListeners();
    // Terminating a thread stuck in SQLite takes effect when the statement ends; nobody waits.
    slot.worker.terminate().catch(() => undefined);
    this.slots[index] = this.spawn();
    job?.reject(error);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.job = job;
      slot.worker.ref();
      if (slot.ready) this.startBudget(slot);
      slot.worker.postMessage({ sql: job.sql, values: job.values, ...job.kind });
    }
  }

  /**
   * A read's budget counts from when its worker can run it: a worker just started (after
   * another was replaced) takes tens of milliseconds, more on a busy machine, to load SQLite
   * and open the database, which is not the read's time.
   */
  private startBudget(slot: Slot): void {
    slot.timer = setTimeout(() => this.replace(slot, new ReadTimeoutError(this.options.budgetMs)), this.options.budgetMs);
  }
}
