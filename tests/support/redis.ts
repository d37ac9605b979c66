import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import net from "node:net";
import { freePort } from "./app";

// A throwaway Redis server (Debian's redis-server) on a free loopback port, nothing saved.

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

export function redisServerPath(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

export async function startRedis(binary: string): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (d) => (errors += d));
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited: ${errors}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
