import "server-only";
import type { Writable } from "node:stream";
import { write } from "../export/run";
import { type AuditFilter, readEvents } from "./queries";

// `feedback audit export`: the trail as NDJSON for a SIEM, one event per line, oldest first,
// read a chunk at a time by id so memory stays bounded however long the trail is.

const CHUNK = 1000;

/** Writes every event matching the filter; returns how many. */
export async function exportEvents(out: Writable, filter: AuditFilter, progress: (done: number) => void = () => {}): Promise<number> {
  let done = 0;
  let after: string | undefined;
  for (;;) {
    const events = await readEvents(filter, { order: "oldest", limit: CHUNK, after });
    if (events.length) await write(out, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
    done += events.length;
    after = events.at(-1)?.id;
    if (events.length < CHUNK) return done;
    progress(done);
  }
}
