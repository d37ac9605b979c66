// Dummy bases for resolving a reference: a relative reference lands on each base's own origin,
// an absolute or scheme-relative one (`https://x`, `//x`, `/\x`) cannot land on both.
const BASES = ["https://a.invalid/page/", "http://b.invalid/page/"];

/**
 * Whether a URL from user content points into this site (a path such as `/logo.png` or
 * `img/a.png`) rather than at another origin. Resolved with the URL standard, as the browser
 * will, so no spelling of another host passes.
 */
export function isRelativeReference(url: string): boolean {
  return BASES.every((base) => {
    try {
      return new URL(url, base).origin === new URL(base).origin;
    } catch {
      return false;
    }
  });
}
