import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Exports and backups are written to a temporary file beside the target and renamed into place
// once complete, so a failure or a kill part-way never leaves a half file under the target's
// name, and a reader never sees one.

function refuseExisting(target: string, force: boolean): void {
  if (!force && fs.existsSync(target)) throw new Error(`${target} already exists; pass --force to replace it`);
}

/** Runs `write` on a fresh temporary path beside `target`, then moves the result to `target`. */
export async function writeBeside<T>(target: string, force: boolean, write: (temp: string) => Promise<T>): Promise<T> {
  refuseExisting(target, force);
  const dir = path.dirname(path.resolve(target));
  if (!fs.existsSync(dir)) throw new Error(`cannot write ${target}: no such directory`);
  const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    const result = await write(temp);
    // Durable before it takes the name: a crash right after the rename must not lose it.
    const fd = fs.openSync(temp, "r");
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    refuseExisting(target, force);
    fs.renameSync(temp, target);
    return result;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
