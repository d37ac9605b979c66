// The words the demo data is made of, and its random source: kept apart from seed.ts (which
// opens the database) so that the benchmark's workload (bench/workload.ts) builds its requests
// from the very same vocabulary.

/** mulberry32: a small, fast PRNG with a 32-bit state; plenty for demo data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const BOARDS = ["Feature requests", "Bug reports", "Integrations", "Mobile app", "Billing & accounts"];
export const STATUSES: [string, string][] = [
  ["Open", "#64748b"],
  ["Under review", "#8b5cf6"],
  ["Planned", "#3b82f6"],
  ["In progress", "#f59e0b"],
  ["Complete", "#22c55e"],
  ["Closed", "#ef4444"],
];
export const FIRST = ["Ada", "Grace", "Alan", "Katherine", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger", "Radia", "Tim", "Hedy", "Guido", "Anita", "Bjarne", "Sophie", "José", "Zoë", "Søren", "Chloé", "Mateo", "Aiko"];
export const LAST = ["Lovelace", "Hopper", "Turing", "Johnson", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Dijkstra", "Perlman", "Berners-Lee", "Lamarr", "van Rossum", "Borg", "Stroustrup", "Wilson", "Müller", "Núñez", "Kierkegaard", "Dubois", "García", "Tanaka"];
export const FEATURES = ["dark mode", "SSO with Okta", "CSV export", "a Slack integration", "keyboard shortcuts", "two-factor authentication", "custom domains", "webhooks", "a public roadmap", "bulk editing", "saved filters", "an iOS widget", "Markdown in comments", "a Zapier app", "email digests", "audit logs", "team permissions", "a GitHub sync", "offline mode", "multi-language support"];
export const AREAS = ["the dashboard", "the mobile app", "the API", "the editor", "reports", "the billing page", "notifications", "search", "the changelog", "the widget"];
export const TITLES = ["Add {f} to {a}", "Support {f}", "Please bring {f} to {a}", "{F} for {a}", "Bug: {a} breaks with {f}", "Improve {a} performance", "Allow {f} in {a}", "Crash when opening {a}"];
export const SENTENCES = [
  "Our team of {n} people relies on this every day.",
  "Right now we work around it by hand, which takes hours each week.",
  "Competitors already offer this, and customers keep asking us about it.",
  "It would make {a} much easier to use on small screens.",
  "This matters most for our enterprise customers.",
  "Happy to beta test it if that helps.",
  "Steps to reproduce: open {a}, switch teams, then reload the page.",
  "Café owners in our community mention it constantly — très important!",
  "We saw a 50% drop in usage after the last change to {a}.",
  "A toggle in the settings would be enough for a first version.",
];
export const REPLIES = [
  "+1, we need this too.",
  "Thanks for the detailed report! We are looking into it.",
  "This is now on our roadmap for next quarter.",
  "Any update on this? It blocks our rollout.",
  "Workaround: export the data and re-import it after the change.",
  "We shipped a first version behind a flag; let us know how it works for you.",
  "Same here — it happens on Safari and Firefox.",
  "Could you share which plan you are on?",
];
export const LABELS = ["New", "Improved", "Fixed", "Security", "API", "Mobile"];

/** "Our team of {n} people": n is drawn from TEAM_SIZES.min to TEAM_SIZES.min + TEAM_SIZES.count - 1. */
export const TEAM_SIZES = { min: 2, count: 200 } as const;

/** A changelog's title, as the seed writes it. */
export const changelogTitle = (feature: string, draft: boolean) => `${draft ? "Coming soon" : "Shipped"}: ${feature}`;

/** A changelog's content, as the seed writes it. */
export const changelogContent = (feature: string, area: string, draft: boolean) =>
  `## What's new\n\nYou asked for **${feature}**, and it is ${draft ? "almost" : "now"} here.\n\n- Works in ${area}\n- Available on every plan\n\nThanks to everyone who voted for it.`;
