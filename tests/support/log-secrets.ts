// Secrets that must never reach a log line: API keys (`fbk_...`) and session cookie values. The
// test harness collects the ones a test saw and checks the server's whole output for them.

const KEY = /fbk_[A-Za-z0-9_-]+/g;
// Shorter values are not secrets worth the name, and would match ordinary text by chance.
const MIN_SECRET_LENGTH = 16;

/** The API keys in a command's output. */
export function keysIn(text: string): string[] {
  return text.match(KEY) ?? [];
}

/** The values a request's `Cookie` header (`a=1; b=2`) and its response's `Set-Cookie` headers hold. */
export function cookieValues(cookie: string | null, setCookies: string[]): string[] {
  // A Set-Cookie's first pair is the cookie; what follows are its attributes.
  const pairs = [...(cookie?.split(";") ?? []), ...setCookies.map((c) => c.split(";")[0] ?? "")];
  return pairs
    .filter((pair) => pair.includes("="))
    .map((pair) => pair.slice(pair.indexOf("=") + 1).trim())
    .filter((value) => value.length >= MIN_SECRET_LENGTH);
}

/** Throws if any line of `output` holds `fbk_` or one of `secrets`, naming the line with them masked. */
export function assertNoSecrets(output: string, secrets: string[]): void {
  const leaks = output.split("\n").filter((line) => line.includes("fbk_") || secrets.some((s) => line.includes(s)));
  if (!leaks.length) return;
  const mask = (line: string) => secrets.reduce((l, s) => l.replaceAll(s, "<secret>"), line).replace(KEY, "fbk_<secret>");
  throw new Error(`The server logged a secret on ${leaks.length} line(s), the first: ${mask(leaks[0] as string).slice(0, 500)}`);
}
