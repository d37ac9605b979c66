import net from "node:net";

// A TCP proxy between the app and its database, for tests of what the app does when the
// database goes away (down: connections refused and cut) or stops answering (frozen: the
// connections stay open but nothing comes back, as in a network partition).

export interface TcpProxy {
  port: number;
  /** The database URL with its host and port replaced by the proxy's. */
  via(databaseUrl: string): string;
  down(): Promise<void>;
  up(): Promise<void>;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  const held: (() => void)[] = [];

  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    // While frozen, bytes are held back in both directions (and released on thaw).
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on("data", (chunk) => {
        if (frozen) held.push(() => to.write(chunk));
        else to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    via(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    async down() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    up: () => listen(port),
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const release of held.splice(0)) release();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
