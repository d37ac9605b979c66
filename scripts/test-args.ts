// The arguments of scripts/test.ts: which suites to run, and whether to build first.

export const SUITES = ["unit", "api", "e2e"] as const;
export type Suite = (typeof SUITES)[number];

export const USAGE = `Usage: tsx scripts/test.ts [unit] [api] [e2e] [--no-build]
  With no suite named, runs them all. The API and browser tests run against the production
  build: it is built first, or, with --no-build, the existing one is used as it is.`;

export interface TestArgs {
  suites: Suite[];
  build: boolean;
}

/** The suites in their usual order (unit, api, e2e), or a message for arguments it does not know. */
export function parseTestArgs(argv: readonly string[]): TestArgs | { error: string } {
  const unknown = argv.filter((arg) => arg !== "--no-build" && !(SUITES as readonly string[]).includes(arg));
  if (unknown.length) return { error: `Unknown argument${unknown.length > 1 ? "s" : ""}: ${unknown.join(" ")}\n${USAGE}` };
  const named = SUITES.filter((suite) => argv.includes(suite));
  return { suites: named.length ? named : [...SUITES], build: !argv.includes("--no-build") };
}

/** Whether the run needs the production build: the API and browser tests run against it. */
export const needsBuild = (suites: readonly Suite[]) => suites.some((suite) => suite !== "unit");
