import fs from "node:fs";

// Processes as Linux shows them in /proc: a server's children, which of them is the webhook
// dispatcher, and their CPU priority.

/** The processes whose parent is `parent`. */
export function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children.sort((a, b) => a - b);
}

const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
};

/** Whether a process is the webhook dispatcher (`feedback webhooks deliver`), which server.ts starts beside its workers. */
export const isDispatcher = (pid: number) => commandOf(pid).includes("webhooks deliver");

/**
 * Whether a process runs server.ts: a worker of server.ts's primary runs the primary's command.
 * Not every child does: tsx starts esbuild to compile a file its cache lacks (a changed one).
 */
export const runsServer = (pid: number) => commandOf(pid).includes("server.ts");

/** A process's niceness, from /proc/PID/stat (the 19th field). */
export function nicenessOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}
