// Group commit for the dispatcher's records of attempts: items added while nothing is being
// written wait up to `windowMs` and are written together; items added while a batch is being
// written wait for the next one. `drain()` says no more are coming soon, so whatever waits (and
// whatever is added after) is written at once instead of at the end of a window. One batch is
// written at a time. Each record is a write, and on SQLite a write takes the one write lock the
// requests need: a busy dispatcher writes one batch per window instead of one per send.

export interface GroupCommit<T, R> {
  /** Settles with the item's result once its batch is written, or rejects with the batch's error. */
  add(item: T): Promise<R>;
  /** Writes what waits now, and from then on writes each item as it comes. */
  drain(): void;
}

/** `write` answers a batch with one result per item, in the same order. */
export function groupCommit<T, R>(write: (batch: T[]) => Promise<R[]>, windowMs: number): GroupCommit<T, R> {
  let waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  let writing = false;
  let drained = false;
  let timer: NodeJS.Timeout | undefined;

  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    writing = true;
    const batch = waiting;
    waiting = [];
    try {
      const results = await write(batch.map((w) => w.item));
      for (const [i, w] of batch.entries()) w.resolve(results[i] as R);
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      writing = false;
      schedule();
    }
  };

  const schedule = () => {
    if (writing || !waiting.length) return;
    if (drained) void flush();
    else timer ??= setTimeout(() => void flush(), windowMs);
  };

  return {
    add: (item) =>
      new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        schedule();
      }),
    drain() {
      drained = true;
      schedule();
    },
  };
}
