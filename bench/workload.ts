// The benchmark's varied workload. A scenario that repeats one request measures the caches
// (the app's totals, the database's pages, the plan cache) more than the work, so each varied
// scenario is a space of distinct requests built from the seed's vocabulary and walked in a
// seeded, shuffled order: no request repeats until the space is used up, and the same seed
// gives the same sequence, so runs stay comparable.
//
// The vocabulary is the seed's own (lib/seed/vocabulary.ts), and so is the random source.

import { AREAS, BOARDS, changelogContent, changelogTitle, FEATURES, LABELS, random, SENTENCES, STATUSES, TEAM_SIZES, TITLES } from "../lib/seed/vocabulary";

export { AREAS, FEATURES, LABELS, random, SENTENCES, TITLES };

/** A changelog's title and content, as the seed writes them ({f} a feature, {a} an area). */
export const CHANGELOG_TEXT = [
  changelogTitle("{f}", false),
  changelogTitle("{f}", true),
  changelogContent("{f}", "{a}", true),
  changelogContent("{f}", "{a}", false),
];
export const BOARD_IDS = BOARDS.map((_, i) => `demo_board_${i + 1}`);
export const STATUS_IDS = STATUSES.map((_, i) => `demo_status_${i + 1}`);
/** The seed's team sizes of three digits, which occur nowhere else in its text. */
export const RARE_NUMBERS = Array.from({ length: TEAM_SIZES.min + TEAM_SIZES.count - 100 }, (_, i) => String(100 + i));
/** The sentence every rare number sits in, so a number with one of its words keeps its ~1,000 hits. */
const RARE_SENTENCE = SENTENCES[0] ?? "";

/** Lower-case runs of letters (no digits, no punctuation) of at least `min` characters. */
export function wordsOf(texts: readonly string[], min = 3): string[] {
  const words = texts.flatMap((text) => text.replace(/\{\w\}/g, " ").toLowerCase().match(/\p{L}+/gu) ?? []);
  return [...new Set(words.filter((w) => [...w].length >= min))].sort();
}

/** Every substring of at least `min` characters of each word, the words included. */
export function substringsOf(words: readonly string[], min = 3): string[] {
  const out = new Set<string>();
  for (const word of words) {
    const chars = [...word];
    for (let start = 0; start < chars.length; start++) {
      for (let end = start + min; end <= chars.length; end++) out.add(chars.slice(start, end).join(""));
    }
  }
  return [...out].sort();
}

type Param = readonly [key: string, value: string];

/** One axis of a request space: `size` choices, each some query parameters (maybe none). */
export interface Dimension {
  size: number;
  at(index: number): Param[];
}

/** A finite set of distinct requests (path and query), addressable by index. */
export interface Space {
  size: number;
  at(index: number): string;
}

export const choices = (options: readonly Param[][]): Dimension => ({ size: options.length, at: (i) => options[i] ?? [] });
export const values = (key: string, list: readonly string[]): Dimension => choices(list.map((v) => [[key, v]]));
/** `key` from `first` to `last`: a range too large to list (pages). */
export const range = (key: string, first: number, last: number): Dimension => ({
  size: Math.max(0, last - first + 1),
  at: (i) => [[key, String(first + i)]],
});

/** Every combination of one choice per dimension, under `path`. */
export function product(path: string, dimensions: readonly Dimension[]): Space {
  const size = dimensions.reduce((n, d) => n * d.size, 1);
  return {
    size,
    at(index) {
      const params: Param[] = [];
      let rest = index;
      for (const dimension of dimensions) {
        params.push(...dimension.at(rest % dimension.size));
        rest = Math.floor(rest / dimension.size);
      }
      const query = new URLSearchParams(params as [string, string][]).toString();
      return query ? `${path}?${query}` : path;
    },
  };
}

/** The spaces one after another. */
export function union(spaces: readonly Space[]): Space {
  return {
    size: spaces.reduce((n, s) => n + s.size, 0),
    at(index) {
      let rest = index;
      for (const space of spaces) {
        if (rest < space.size) return space.at(rest);
        rest -= space.size;
      }
      throw new RangeError(`index ${index} is outside the space`);
    },
  };
}

/** Indexes past this would cost more memory to shuffle than a benchmark should. */
const MAX_SPACE = 1 << 24;

export interface Draw {
  /** The next request's path: each of the space's requests once, in a shuffled order, then again. */
  next(): string;
  /** How many requests were drawn so far. */
  readonly drawn: number;
  readonly size: number;
}

/** Walks a space in an order shuffled by `seed` (Fisher-Yates over its indexes). */
export function draw(space: Space, seed: number): Draw {
  if (space.size < 1) throw new RangeError("an empty request space");
  if (space.size > MAX_SPACE) throw new RangeError(`a request space of ${space.size} is too large to shuffle`);
  const rand = random(seed);
  const order = new Uint32Array(space.size);
  for (let i = 0; i < order.length; i++) order[i] = i;
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const swap = order[i] as number;
    order[i] = order[j] as number;
    order[j] = swap;
  }
  let drawn = 0;
  return {
    next: () => space.at(order[drawn++ % order.length] as number),
    get drawn() {
      return drawn;
    },
    size: space.size,
  };
}

/** What the workload needs to know of the data: totals for the unfiltered list and per board. */
export interface Universe {
  posts: number;
  boardPosts: Record<string, number>;
}

export interface VariedScenario {
  name: string;
  label: string;
  /** Whether the targets hold it to the reads' 100 ms (short terms have their own target). */
  fastTarget: boolean;
  space(universe: Universe): Space;
}

/** Words of a changelog's text and their parts, as a changelog search sends them. */
const changelogTerms = () => substringsOf(wordsOf([...CHANGELOG_TEXT, ...FEATURES, ...AREAS]));

const POSTS = "/api/v1/posts";
const CHANGELOGS = "/api/v1/changelogs";
const sorts = values("sortBy", ["latest", "top"]);
const search = (list: readonly string[]) => values("search", list);

/** Words of a post's text: the title templates, the sentences, the features and the areas. */
const postWords = () => wordsOf([...TITLES, ...SENTENCES, ...FEATURES, ...AREAS]);
/** Words of the post titles around the feature (and of the features), and of the content and the areas. */
const titleWords = () => wordsOf([...TITLES, ...FEATURES]);
const contentWords = () => wordsOf([...SENTENCES, ...AREAS]);

/** A letter in no post and no changelog, so a term holding it cannot match (checked by the tests). */
export const ABSENT_LETTER = "q";

/** Four-letter terms holding the absent letter once: 4 positions x 25^3 other letters. */
function noMatchTerms(): Dimension {
  const letters = "abcdefghijklmnopqrstuvwxyz".replace(ABSENT_LETTER, "");
  const n = letters.length;
  return {
    size: 4 * n ** 3,
    at(index) {
      const position = index % 4;
      let rest = Math.floor(index / 4);
      const chars: string[] = [];
      for (let i = 0; i < 3; i++) {
        chars.push(letters[rest % n] as string);
        rest = Math.floor(rest / n);
      }
      chars.splice(position, 0, ABSENT_LETTER);
      return [["search", chars.join("")]];
    },
  };
}

/** Terms of one or two letters: what no trigram index can look up by itself (lib/vocabulary.ts). */
function shortTerms(): string[] {
  const letters = [..."abcdefghijklmnopqrstuvwxyz"];
  return [...letters, ...letters.flatMap((a) => letters.map((b) => a + b))];
}

/** Every way to filter by board and/or status, at least one of them. */
function boardStatusFilters(): Dimension {
  const boards: Param[][] = [[], ...BOARD_IDS.map((b): Param[] => [["boardId", b]])];
  const statuses: Param[][] = [[], ...STATUS_IDS.map((s): Param[] => [["statusId", s]])];
  return choices(boards.flatMap((b) => statuses.map((s) => [...b, ...s])).filter((params) => params.length > 0));
}

/** One label, or two different ones, as a comma-separated list; or no label filter. */
function labelFilters(): Param[][] {
  const pairs = LABELS.flatMap((a, i) => LABELS.slice(i + 1).map((b) => `${a},${b}`));
  return [[], ...[...LABELS, ...pairs].map((l): Param[] => [["labels", l]])];
}

const pagesOf = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

export const VARIED_SCENARIOS: VariedScenario[] = [
  {
    name: "varied-rare-word",
    label: "search a rare number (~1,000 hits per 1M posts), alone or with a word of its sentence; pages 1-3",
    fastTarget: true,
    space: () => {
      const withWords = substringsOf(wordsOf([RARE_SENTENCE])).flatMap((w) => RARE_NUMBERS.map((n) => `${n} ${w}`));
      return product(POSTS, [search([...RARE_NUMBERS, ...withWords]), sorts, range("page", 1, 3)]);
    },
  },
  {
    name: "varied-common-word",
    label: "search a common word or a 3+ letter part of one; pages 1-5, limit 10 or 20",
    fastTarget: true,
    space: () => product(POSTS, [search(substringsOf(postWords())), sorts, range("page", 1, 5), values("limit", ["10", "20"])]),
  },
  {
    name: "varied-word-pair",
    label: "search two words (a title word with a content word); pages 1-2",
    fastTarget: true,
    space: () => {
      const content = contentWords();
      // In one order only: "a b" and "b a" are the same search.
      const pairs = new Set(titleWords().flatMap((a) => content.filter((b) => b !== a).map((b) => [a, b].sort().join(" "))));
      return product(POSTS, [search([...pairs].sort()), sorts, range("page", 1, 2)]);
    },
  },
  {
    name: "varied-word-filter",
    label: "search a word (or part) with boardId and/or statusId",
    fastTarget: true,
    space: () => product(POSTS, [search(substringsOf(postWords())), boardStatusFilters(), sorts]),
  },
  {
    name: "varied-deep-page",
    label: "no search, page uniform over the whole list (limit 20), sometimes on one board",
    fastTarget: true,
    space: (universe) =>
      union([
        product(POSTS, [values("limit", ["20"]), range("page", 1, pagesOf(universe.posts, 20)), sorts]),
        ...BOARD_IDS.map((board) =>
          product(POSTS, [values("boardId", [board]), values("limit", ["20"]), range("page", 1, pagesOf(universe.boardPosts[board] ?? 0, 20)), sorts]),
        ),
      ]),
  },
  {
    name: "varied-no-match",
    label: `search a 4-letter term that matches nothing (holds "${ABSENT_LETTER}")`,
    fastTarget: true,
    space: () => product(POSTS, [noMatchTerms(), sorts]),
  },
  {
    name: "varied-short-term",
    label: "search only 1-2 letter terms (one or two of them): no trigram index finds them by themselves",
    fastTarget: false,
    space: () => {
      const terms = shortTerms();
      return union([
        product(POSTS, [search(terms), sorts]),
        product(POSTS, [search(terms.flatMap((a, i) => terms.slice(i + 1).map((b) => `${a} ${b}`))), sorts]),
      ]);
    },
  },
  {
    name: "varied-changelogs",
    label: "changelogs: search a word (or part) with status and/or labels",
    fastTarget: true,
    space: () => {
      const statuses: Param[][] = [[], [["status", "Draft"]], [["status", "Published"]]];
      const filters = statuses.flatMap((s) => labelFilters().map((l) => [...s, ...l])).filter((p) => p.length > 0);
      return product(CHANGELOGS, [search(changelogTerms()), choices(filters)]);
    },
  },
  {
    name: "varied-changelog-search",
    label: "changelogs: search a word (or part) alone, no filter; pages 1-5 of 10 to 100",
    fastTarget: true,
    space: () => product(CHANGELOGS, [search(changelogTerms()), range("page", 1, 5), values("limit", ["10", "20", "50", "100"])]),
  },
];
