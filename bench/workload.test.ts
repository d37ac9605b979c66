import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { listKeysOf, queryObject } from "../lib/api/query";
import { listChangelogsQuery } from "../lib/changelogs/schemas";
import { listPostsQuery } from "../lib/posts/schemas";
import { fold } from "../lib/search";
import {
  ABSENT_LETTER,
  AREAS,
  BOARD_IDS,
  CHANGELOG_TEXT,
  draw,
  FEATURES,
  LABELS,
  RARE_NUMBERS,
  SENTENCES,
  TITLES,
  type Universe,
  VARIED_SCENARIOS,
} from "./workload";

const MILLION: Universe = { posts: 1_000_000, boardPosts: Object.fromEntries(BOARD_IDS.map((b) => [b, 200_000])) };
const DRAWS = 10_000;

const fill = (template: string, feature: string, area: string, n: string) =>
  template.replace("{f}", feature).replace("{F}", feature).replace("{a}", area).replace("{n}", n);

/** Every title and sentence the seed can write (numbers aside), folded as the search column holds them. */
const postTexts = [
  ...TITLES.flatMap((t) => FEATURES.flatMap((f) => AREAS.map((a) => fill(t, f, a, "")))),
  ...SENTENCES.flatMap((s) => AREAS.map((a) => fill(s, "", a, "137"))),
].map(fold);
const changelogTexts = CHANGELOG_TEXT.flatMap((t) => FEATURES.flatMap((f) => AREAS.map((a) => fill(t, f, a, "")))).map(fold);

const termsOf = (search: string | null) => [...new Set(fold(search ?? "").split(/\s+/u).filter(Boolean))];

/** A request as a cache that understood the API would key it: terms folded, deduplicated, sorted. */
function canonical(request: string): string {
  const url = new URL(request, "http://bench");
  const params = [...url.searchParams.entries()].map(([k, v]) => {
    if (k === "search") return `${k}=${termsOf(v).sort().join(" ")}`;
    if (k === "labels") return `${k}=${v.split(",").map(fold).sort().join(",")}`;
    return `${k}=${v}`;
  });
  return `${url.pathname}?${params.sort().join("&")}`;
}

const lists = { posts: listKeysOf(listPostsQuery), changelogs: listKeysOf(listChangelogsQuery) };

/** Parses a request's query with the API's own schema, as the handler reads a query string. */
function parse(request: string) {
  const url = new URL(request, "http://bench");
  if (url.pathname === "/api/v1/posts") {
    return listPostsQuery.safeParse(queryObject(url.searchParams, Object.keys(listPostsQuery.shape), lists.posts));
  }
  assert.equal(url.pathname, "/api/v1/changelogs");
  return listChangelogsQuery.safeParse(queryObject(url.searchParams, Object.keys(listChangelogsQuery.shape), lists.changelogs));
}

describe("the seed's vocabulary, as the workload reads it", () => {
  test(`no post or changelog the seed writes holds "${ABSENT_LETTER}"`, () => {
    assert.ok(![...postTexts, ...changelogTexts].some((t) => t.includes(ABSENT_LETTER)));
  });

  test("the rare numbers are the seed's three-digit team sizes", () => {
    assert.deepEqual([RARE_NUMBERS[0], RARE_NUMBERS.at(-1)], ["100", "201"]);
  });
});

describe("each varied scenario", () => {
  for (const scenario of VARIED_SCENARIOS) {
    describe(scenario.name, () => {
      const space = scenario.space(MILLION);
      const requests = (() => {
        const d = draw(space, 1);
        return Array.from({ length: DRAWS }, () => d.next());
      })();

      test("is deterministic for a seed, and another seed gives another order", () => {
        const again = draw(space, 1);
        assert.deepEqual(Array.from({ length: 500 }, () => again.next()), requests.slice(0, 500));
        const other = draw(space, 2);
        assert.notDeepEqual(Array.from({ length: 500 }, () => other.next()), requests.slice(0, 500));
      });

      test(`gives at least 95% distinct requests in ${DRAWS} draws at 1,000,000 posts`, () => {
        assert.ok(space.size >= DRAWS, `only ${space.size} requests`);
        const distinct = new Set(requests.map(canonical)).size;
        assert.ok(distinct >= 0.95 * DRAWS, `${distinct} distinct of ${DRAWS}`);
      });

      test("every request is a valid query of the API", () => {
        for (const request of requests) {
          const parsed = parse(request);
          assert.ok(parsed.success, `${request}: ${parsed.error?.message}`);
        }
      });
    });
  }
});

describe("what each scenario asks for", () => {
  const sample = (name: string, universe = MILLION) => {
    const scenario = VARIED_SCENARIOS.find((s) => s.name === name);
    assert.ok(scenario, name);
    const d = draw(scenario.space(universe), 7);
    return Array.from({ length: 2000 }, () => new URL(d.next(), "http://bench").searchParams);
  };
  const everyTermIn = (texts: string[], terms: string[]) => terms.every((term) => texts.some((t) => t.includes(term)));

  test("a rare search holds one three-digit number, and its other term sits in the number's sentence", () => {
    const sentence = fold(SENTENCES[0] ?? "");
    for (const params of sample("varied-rare-word")) {
      const [number, ...rest] = termsOf(params.get("search"));
      assert.ok(number && RARE_NUMBERS.includes(number), params.toString());
      assert.ok(rest.length <= 1 && everyTermIn([sentence], rest), params.toString());
    }
  });

  test("common words, pairs and filtered words occur in the seed's posts", () => {
    for (const name of ["varied-common-word", "varied-word-pair", "varied-word-filter"]) {
      for (const params of sample(name)) {
        const terms = termsOf(params.get("search"));
        assert.ok(terms.length >= 1 && terms.every((t) => [...t].length >= 3), params.toString());
        assert.ok(everyTermIn(postTexts, terms), params.toString());
      }
    }
    for (const params of sample("varied-word-filter")) assert.ok(params.has("boardId") || params.has("statusId"));
  });

  test("a no-match term occurs in no post", () => {
    for (const params of sample("varied-no-match")) {
      const [term, ...rest] = termsOf(params.get("search"));
      assert.ok(term && [...term].length >= 3 && rest.length === 0);
      assert.ok(!postTexts.some((t) => t.includes(term)), term);
    }
  });

  test("a short-term search has one or two terms of one or two letters", () => {
    for (const params of sample("varied-short-term")) {
      const terms = termsOf(params.get("search"));
      assert.ok(terms.length >= 1 && terms.length <= 2 && terms.every((t) => t.length <= 2), params.toString());
    }
  });

  test("deep pages cover the whole list and stay inside it, on each board too", () => {
    const universe: Universe = { posts: 20_000, boardPosts: Object.fromEntries(BOARD_IDS.map((b, i) => [b, 3_000 + i])) };
    const pages = new Map<string, number[]>();
    for (const params of sample("varied-deep-page", universe)) {
      const board = params.get("boardId") ?? "";
      const total = board ? (universe.boardPosts[board] as number) : universe.posts;
      const page = Number(params.get("page"));
      assert.equal(params.get("limit"), "20");
      assert.ok(page >= 1 && page <= Math.ceil(total / 20), params.toString());
      pages.set(board, [...(pages.get(board) ?? []), page]);
    }
    assert.equal(pages.size, 1 + BOARD_IDS.length);
    const unfiltered = pages.get("") ?? [];
    assert.ok(Math.max(...unfiltered) > 900 && Math.min(...unfiltered) < 100, "pages do not spread over the list");
  });

  test("a changelog search occurs in the seed's changelogs and comes with status and/or labels", () => {
    for (const params of sample("varied-changelogs")) {
      assert.ok(everyTermIn(changelogTexts, termsOf(params.get("search"))), params.toString());
      assert.ok(params.has("status") || params.has("labels"), params.toString());
      for (const label of params.get("labels")?.split(",") ?? []) assert.ok(LABELS.includes(label));
    }
  });

  test("a changelog search alone occurs in the seed's changelogs, with no filter, on pages 1-5 of 10 to 100", () => {
    for (const params of sample("varied-changelog-search")) {
      assert.ok(everyTermIn(changelogTexts, termsOf(params.get("search"))), params.toString());
      assert.deepEqual([...params.keys()].sort(), ["limit", "page", "search"], params.toString());
      assert.ok(["1", "2", "3", "4", "5"].includes(params.get("page") ?? ""), params.toString());
      assert.ok(["10", "20", "50", "100"].includes(params.get("limit") ?? ""), params.toString());
    }
  });
});
