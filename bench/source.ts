import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// What code a bench build was made from. `--skip-build` reuses .next-bench whatever it was
// built from: twice a run meant to measure one version of the code measured another (a build
// left from an earlier run, and a build that failed its type check and was quietly replaced),
// and only a profile showing the wrong queries gave it away. The build is stamped with a digest
// of what `next build` reads, and a run reuses it only when the tree still has that digest.

/** What `next build` compiles (tsconfig.json is left out: the build itself rewrites it). */
export const BUILD_INPUTS = ["app", "components", "lib", "prisma", "next.config.mjs", "package-lock.json"];

export interface SourceStamp {
  /** The commit checked out. */
  commit: string;
  /** How many of the build's files differ from that commit (changed, added or deleted). */
  changed: number;
  /** sha256 over the path and content of every build file, tracked or not (ignored ones aside). */
  digest: string;
}

const git = (root: string, args: string[]) => execFileSync("git", args, { cwd: root, stdio: ["ignore", "pipe", "ignore"] }).toString();

/** The stamp of the tree at `root` now; null where it is not a git checkout. */
export function sourceStamp(root: string): SourceStamp | null {
  let files: string[];
  let commit: string;
  let status: string;
  try {
    commit = git(root, ["rev-parse", "--short", "HEAD"]).trim();
    files = git(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...BUILD_INPUTS]).split("\0").filter(Boolean);
    status = git(root, ["status", "--porcelain", "--untracked-files=all", "--", ...BUILD_INPUTS]);
  } catch {
    return null;
  }
  const hash = createHash("sha256");
  for (const file of [...new Set(files)].sort()) {
    const full = path.join(root, file);
    if (!fs.existsSync(full)) continue; // deleted, not yet committed
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(full));
    hash.update("\0");
  }
  return { commit, changed: status.split("\n").filter(Boolean).length, digest: hash.digest("hex") };
}

/** "commit 9e650e8" or "commit 9e650e8 with 3 files changed", and the digest's start. */
export const describeStamp = (stamp: SourceStamp) =>
  `commit ${stamp.commit}${stamp.changed ? ` with ${stamp.changed} file${stamp.changed === 1 ? "" : "s"} changed` : ""} (digest ${stamp.digest.slice(0, 12)})`;

const STAMP_FILE = "bench-source.json";

export function writeStamp(distDir: string, stamp: SourceStamp | null): void {
  if (stamp) fs.writeFileSync(path.join(distDir, STAMP_FILE), `${JSON.stringify(stamp)}\n`);
}

/** The stamp a build was made with, or null for a build made before stamps (or outside git). */
export function readStamp(distDir: string): SourceStamp | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(distDir, STAMP_FILE), "utf8")) as SourceStamp;
  } catch {
    return null;
  }
}
