// For what a server does a moment after it answers (the webhook dispatcher's fan-out and
// sends): asks again every 50 ms until the answer is truthy, and fails naming what it waited
// for once the time is up.

/** The first truthy value `check` gives, or an error naming `what` after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
