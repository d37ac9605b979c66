// A small dataset, in the import format, with the awkward cases the contract cares about:
// ties in every sort key, wildcard characters and non-ASCII text in titles, a post with no
// status, pinned and unpinned comments, Draft and Published changelogs with labels in any case.

const at = (day: number, hour = 0) => new Date(Date.UTC(2026, 0, day, hour)).toISOString();

export const boards = [
  { id: "b-features", name: "Feature requests" },
  { id: "b-bugs", name: "Bugs" },
  { id: "b-empty", name: "Nothing here yet" },
];

export const statuses = [
  { id: "s-open", name: "Open", color: "#64748b" },
  { id: "s-planned", name: "Planned", color: "#3b82f6" },
  { id: "s-done", name: "Complete", color: "#22c55e" },
];

export const users = [
  { id: "u-ada", name: "Ada Lovelace", email: "ada@example.com" },
  { id: "u-grace", name: "Grace Hopper", email: "grace@example.com" },
  { id: "u-zoe", name: "Zoë Ünal", email: null },
];

interface PostSpec {
  id: string;
  title: string;
  content: string;
  boardId: string;
  statusId: string | null;
  postedById: string;
  upvotes: number;
  createdAt: string;
}

const special: PostSpec[] = [
  { id: "p-dark", title: "Dark mode", content: "Please add a dark theme for night owls.", boardId: "b-features", statusId: "s-planned", postedById: "u-ada", upvotes: 40, createdAt: at(10) },
  { id: "p-percent", title: "100% uptime report", content: "Show uptime as a percentage.", boardId: "b-features", statusId: "s-open", postedById: "u-grace", upvotes: 40, createdAt: at(10) },
  { id: "p-underscore", title: "Use snake_case fields", content: "The export should use snake_case keys.", boardId: "b-bugs", statusId: "s-open", postedById: "u-grace", upvotes: 7, createdAt: at(9) },
  { id: "p-backslash", title: "Windows paths break", content: "Paths like C:\\Users\\ada are mangled.", boardId: "b-bugs", statusId: null, postedById: "u-zoe", upvotes: 7, createdAt: at(9) },
  { id: "p-creme", title: "CRÈME BRÛLÉE theme", content: "Straße names and ΟΔΟΣ signs render in capitals.", boardId: "b-features", statusId: "s-done", postedById: "u-zoe", upvotes: 3, createdAt: at(8) },
  { id: "p-csv", title: "Export to CSV", content: "A csv export for reports, please.", boardId: "b-features", statusId: null, postedById: "u-ada", upvotes: 55, createdAt: at(7) },
];

// Filler for pagination: 20 posts on b-bugs, one a day from day 11, upvotes cycling 0..4.
const filler: PostSpec[] = Array.from({ length: 20 }, (_, i) => ({
  id: `p-filler-${String(i + 1).padStart(2, "0")}`,
  title: `Filler report ${i + 1}`,
  content: "Something small is off.",
  boardId: "b-bugs",
  statusId: i % 2 === 0 ? "s-open" : "s-done",
  postedById: i % 3 === 0 ? "u-ada" : "u-grace",
  upvotes: i % 5,
  createdAt: at(11 + i),
}));

export const posts = [...special, ...filler];

export const comments = [
  { id: "c-first", postId: "p-dark", postedById: "u-grace", commentDescription: "Yes please, my eyes hurt.", pinned: false, createdAt: at(11) },
  { id: "c-pinned", postId: "p-dark", postedById: "u-ada", commentDescription: "This is planned for Q2.", pinned: true, createdAt: at(12), updatedAt: at(12, 6) },
  { id: "c-later", postId: "p-dark", postedById: "u-zoe", commentDescription: "Any news?", pinned: false, createdAt: at(13) },
  { id: "c-csv", postId: "p-csv", postedById: "u-zoe", commentDescription: "CSV would help us a lot.", pinned: false, createdAt: at(8) },
];

export const changelogs = [
  { id: "cl-dark", title: "Dark mode is here", content: "# Dark mode\n\nSwitch it on in **Settings**.", status: "Published", labels: ["New", "UI"], publishedAt: at(20), createdAt: at(15) },
  { id: "cl-csv", title: "CSV export fixed", content: "Exports keep 100% of rows and snake_case keys.", status: "Published", labels: ["Fixed"], publishedAt: at(25), createdAt: at(24) },
  { id: "cl-tie", title: "Faster search", content: "Search is twice as fast.", status: "Published", labels: ["improved", "API"], publishedAt: at(20), createdAt: at(16) },
  { id: "cl-sso", title: "Coming: SSO", content: "Single sign-on with Okta and CRÈME-coloured buttons.", status: "Draft", labels: ["new"], createdAt: at(26), updatedAt: at(27) },
  { id: "cl-audit", title: "Coming: audit log", content: "Every change, recorded.", status: "Draft", labels: [], createdAt: at(26), updatedAt: at(28) },
];

export const dataset = { version: 1, boards, statuses, users, posts, comments, changelogs };

/** The ids of `posts` in the API's `latest` order: createdAt desc, then id desc. */
export function latestOrder(items: PostSpec[] = posts): string[] {
  return [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1)).map((p) => p.id);
}

/** The ids of `posts` in the API's `top` order: upvotes desc, createdAt desc, id desc. */
export function topOrder(items: PostSpec[] = posts): string[] {
  return [...items]
    .sort((a, b) => b.upvotes - a.upvotes || b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1))
    .map((p) => p.id);
}
