import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";

// CONTRACT.md section 6: text that reaches the database may not hold NUL or an unpaired
// surrogate; such input is a 400 naming the field, on both engines alike, and every other
// character is accepted. The examples pin the cases that once were 500s; the properties send
// arbitrary strings to every parameter and body field of every endpoint.

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});

// A fixed seed keeps runs reproducible; fast-check prints the seed and the shrunk counterexample
// on failure. FC_SEED explores other cases.
const RUNS = { numRuns: 60, seed: Number(process.env.FC_SEED ?? 20261123) };

type Init = RequestInit & { key?: string | null };

/** Asserts the one error shape, and returns the fields its details name. */
async function errorFields(res: Response, what: string): Promise<string[]> {
  assert.ok(res.status < 500, `${what}: ${res.status} ${await res.clone().text()}`);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8", what);
  const body = await res.json();
  assert.equal(typeof body.error?.code, "string", `${what}: ${JSON.stringify(body)}`);
  assert.equal(typeof body.error.message, "string", what);
  assert.equal(body.error.requestId, res.headers.get("x-request-id"), what);
  return (body.error.details ?? []).map((d: { field: string }) => d.field);
}

/** A 400 whose details name the field; and the same request without a key is a 401. */
async function assertRefused(path: string, field: string, init: Init = {}) {
  const res = await app.request(path, init);
  const what = `${init.method ?? "GET"} ${path} ${init.body ?? ""}`;
  assert.equal(res.status, 400, what);
  assert.deepEqual(await errorFields(res, what), [field], what);
  const anonymous = await app.request(path, { ...init, key: null });
  assert.equal(anonymous.status, 401, `${what} without a key`);
}

const putJson = (body: string): Init => ({ method: "PUT", headers: { "content-type": "application/json" }, body });
const putForm = (body: string): Init => ({ method: "PUT", headers: { "content-type": "application/x-www-form-urlencoded" }, body });

/** Every comment of the dataset as the API shows it, to prove a refused write changed nothing. */
async function allComments(): Promise<unknown> {
  const lists = await Promise.all(["p-dark", "p-csv"].map((id) => app.json(`/api/v1/posts/${id}/comments?limit=100`)));
  return lists.map((l) => l.body.data);
}

async function comment(id: string): Promise<{ commentDescription: string; pinned: boolean }> {
  const postId = dataset.comments.find((c) => c.id === id)?.postId;
  const { body } = await app.json(`/api/v1/posts/${postId}/comments?limit=100`);
  return body.data.find((c: { id: string }) => c.id === id);
}

describe("NUL and unpaired surrogates are a 400 naming the field", () => {
  const queries: [string, string][] = [
    ["/api/v1/posts?search=ab%00cd", "search"],
    ["/api/v1/posts?search=%00", "search"],
    ["/api/v1/posts?q=dark%00mode", "search"],
    ["/api/v1/posts?boardId=%00", "boardId"],
    ["/api/v1/posts?statusId=s-open%00", "statusId"],
    ["/api/v1/posts?postedById=%00u-ada", "postedById"],
    ["/api/v1/posts?id=p-dark,p%00", "id"],
    ["/api/v1/posts?sortBy=top%00", "sortBy"],
    ["/api/v1/posts?limit=1%00", "limit"],
    ["/api/v1/changelogs?search=dark%00", "search"],
    ["/api/v1/changelogs?labels=New&labels=%00", "labels"],
    ["/api/v1/changelogs?status=Draft%00", "status"],
    ["/api/v1/changelogs?id=%00", "id"],
    ["/api/v1/users?search=ada%00", "search"],
    ["/api/v1/users?id=%00", "id"],
    ["/api/v1/boards?page=%00", "page"],
    ["/api/v1/posts/%00", "postId"],
    ["/api/v1/posts/p-dark%00/comments", "postId"],
    ["/api/v1/changelogs/%00", "changelogId"],
  ];
  for (const [path, field] of queries) {
    it(`GET ${path}: 400 naming ${field}, 401 without a key`, () => assertRefused(path, field));
  }

  const bodies: [string, string, Init][] = [
    ["a NUL in a form's commentDescription", "commentDescription", putForm("commentDescription=a%00b")],
    ["a NUL in JSON's commentDescription", "commentDescription", putJson('{"commentDescription":"a\\u0000b"}')],
    ["a lone high surrogate in JSON", "commentDescription", putJson('{"commentDescription":"a\\ud800b"}')],
    ["a lone low surrogate in JSON", "commentDescription", putJson('{"commentDescription":"\\udc00"}')],
    ["surrogates in the wrong order", "commentDescription", putJson('{"commentDescription":"\\ude00\\ud83d"}')],
    ["a NUL in a JSON pinComment", "pinComment", putJson('{"pinComment":"true\\u0000"}')],
  ];
  for (const [name, field, init] of bodies) {
    it(`PUT with ${name}: 400 naming ${field}, 401 without a key, the comment unchanged`, async () => {
      const before = await allComments();
      await assertRefused("/api/v1/comments/c-first", field, init);
      assert.deepEqual(await allComments(), before);
    });
  }

  it("PUT to a comment id holding NUL: 400 naming commentId", () =>
    assertRefused("/api/v1/comments/c-first%00", "commentId", putJson('{"pinComment":true}')));

  it("a path that is not UTF-8 (a surrogate's bytes, a stray byte) is a 400 naming the path", async () => {
    for (const path of ["/api/v1/changelogs/%ED%A0%80", "/api/v1/posts/%ED%B0%80/comments", "/api/v1/changelogs/%FF", "/api/v1/comments/%C0%80"]) {
      await assertRefused(path, "path", path.startsWith("/api/v1/comments") ? putJson('{"pinComment":true}') : {});
    }
  });

  it("a body that is not UTF-8 is a 400, the comment unchanged", async () => {
    const before = await allComments();
    const bytes = Buffer.concat([Buffer.from('{"commentDescription":"a'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    await assertRefused("/api/v1/comments/c-first", "body", { ...putJson(""), body: bytes });
    assert.deepEqual(await allComments(), before);
  });

  it("ignores NUL in fields the API does not read, like any unknown field", async () => {
    const { status } = await app.json("/api/v1/posts?utm=%00");
    assert.equal(status, 200);
    const put = await app.json("/api/v1/comments/c-later", putJson('{"pinComment":false,"note":"\\u0000"}'));
    assert.equal(put.status, 200);
  });
});

describe("every other character is accepted and kept", () => {
  const text = "tab\tbell\u0007 del\u007f nel\u0085 ls\u2028 bom\ufeff nonchar\uffff\ufffe repl\ufffd 😀 e\u0301 ß ς İ %_\\ \"'";

  it("stores and returns such a comment exactly, from JSON and from a form", async () => {
    const json = await app.json("/api/v1/comments/c-csv", putJson(JSON.stringify({ commentDescription: text })));
    assert.equal(json.status, 200, JSON.stringify(json.body));
    assert.equal(json.body.data.commentDescription, text);
    assert.equal((await comment("c-csv")).commentDescription, text);

    const form = await app.json("/api/v1/comments/c-csv", putForm(new URLSearchParams({ commentDescription: `${text}!` }).toString()));
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.equal((await comment("c-csv")).commentDescription, `${text}!`);
  });

  it("searches and filters with it: 200, no match", async () => {
    for (const name of ["search", "boardId", "id"]) {
      const { status, body } = await app.json(`/api/v1/posts?${new URLSearchParams({ [name]: text })}`);
      assert.equal(status, 200, `${name}: ${JSON.stringify(body)}`);
      assert.deepEqual(body.data, []);
    }
  });
});

describe("signing in with a key that cannot be a key", () => {
  const keys: [string, string][] = [
    ["a space", "fbk_a b"],
    ["a newline", "fbk_a\nb"],
    ["a NUL", "fbk_a\u0000b"],
    ["a lone surrogate", "fbk_\ud800"],
    ["a character outside Latin-1", "fbk_✓"],
    ["a DEL", `fbk_${"A".repeat(43)}\u007f`],
  ];
  for (const [name, key] of keys) {
    it(`with ${name}: 401 from JSON, back to /login?error=invalid from the form, no cookie`, async () => {
      const json = await app.request("/api/session", { method: "POST", key: null, headers: { "content-type": "application/json" }, body: JSON.stringify({ key }) });
      assert.equal(json.status, 401);
      assert.equal((await errorFields(json, name)).length, 0);
      assert.equal(json.headers.get("set-cookie"), null);

      const form = await app.request("/api/session", {
        method: "POST",
        key: null,
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ key }).toString(),
      });
      assert.equal(form.status, 303);
      assert.equal(form.headers.get("location"), "/login?error=invalid");
      assert.equal(form.headers.get("set-cookie"), null);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Properties

/** Code points as UTF-8 bytes, lone surrogates included (as a careless encoder writes them). */
function looseUtf8(text: string): number[] {
  const bytes: number[] = [];
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return bytes;
}

/** Percent-encodes every byte but the unreserved ASCII ones. */
function percent(text: string): string {
  return looseUtf8(text)
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) && b < 0x80 ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`))
    .join("");
}

/** What a server reads from a percent-encoded query or form value. */
function received(encoded: string): string {
  return new URLSearchParams(`v=${encoded}`).get("v") ?? "";
}

/** What a server reads from a percent-encoded path segment, or undefined if it is not UTF-8. */
function receivedPath(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

const forbidden = (value: string) => /[\0\uD800-\uDFFF]/u.test(value);

const SPECIAL = [
  "\0", "\ud800", "\udbff", "\udc00", "\udfff", "\ud83d\ude00", "\u0001", "\u0008", "\t", "\n", "\r", "\u001f", "\u007f",
  "\u0085", "\u00a0", "\u2028", "\u202e", "\ufeff", "\ufffd", "\ufffe", "\uffff", " ", "%", "_", "\\", '"', "'", ",", "*",
  "(", ")", "^", "-", "+", ":", "/", "?", "#", "&", "=", ";", "AND", "OR", "NEAR", "ß", "ς", "İ", "e\u0301", "中文",
];

/** Arbitrary text, leaning on characters that have broken parsers and databases before. */
function textOf(...valid: string[]): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { arbitrary: fc.constantFrom(...SPECIAL), weight: 3 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 3 }), weight: 1 },
    { arbitrary: fc.string({ unit: "binary-ascii", maxLength: 3 }), weight: 1 },
    ...(valid.length ? [{ arbitrary: fc.constantFrom(...valid), weight: 3 }] : []),
  );
  return fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(""));
}

/** A path segment: never empty, "." or "..", which the URL itself would rewrite. */
function segmentOf(...valid: string[]): fc.Arbitrary<string> {
  return textOf(...valid).filter((s) => s !== "" && s !== "." && s !== "..");
}

interface Case {
  signed: boolean;
  params: Record<string, string>;
}

/** The query string as sent, and the parameters as the server reads them. */
function queryOf(params: Record<string, string>): { query: string; values: Record<string, string> } {
  const pairs = Object.entries(params).map(([k, v]) => [k, percent(v)] as const);
  return {
    query: pairs.map(([k, v]) => `${k}=${v}`).join("&"),
    values: Object.fromEntries(pairs.map(([k, v]) => [k === "q" ? "search" : k, received(v)])),
  };
}

const isWhole = (min: number) => (v: string) => /^\d+$/.test(v) && Number(v) >= min;
const PAGE_RULES = { limit: (v: string) => isWhole(1)(v) && Number(v) <= 100, page: (v: string) => isWhole(1)(v) && Number(v) <= Number.MAX_SAFE_INTEGER };

/** One list endpoint: which parameters it reads, and which values are valid for the constrained ones. */
interface ListEndpoint {
  path: string;
  params: Record<string, fc.Arbitrary<string>>;
  rules: Record<string, (value: string) => boolean>;
}

const pageArbs = { limit: textOf("1", "10", "100", "0", "101"), page: textOf("1", "2", "3") };
const LISTS: ListEndpoint[] = [
  {
    path: "/api/v1/posts",
    params: {
      search: textOf("dark", "mode", "CSV", "100%", "snake_case"),
      id: textOf("p-dark", "p-csv", ","),
      boardId: textOf("b-features", "b-bugs"),
      statusId: textOf("s-open", "s-done"),
      postedById: textOf("u-ada", "u-zoe"),
      sortBy: textOf("latest", "top"),
      ...pageArbs,
    },
    rules: { sortBy: (v) => v === "latest" || v === "top", ...PAGE_RULES },
  },
  {
    path: "/api/v1/changelogs",
    params: {
      search: textOf("dark", "CRÈME", "fixed"),
      id: textOf("cl-dark", "cl-sso", ","),
      labels: textOf("New", "fixed", "UI", ","),
      status: textOf("Draft", "published", " "),
      ...pageArbs,
    },
    rules: { status: (v) => ["draft", "published"].includes(v.trim().toLowerCase()), ...PAGE_RULES },
  },
  { path: "/api/v1/users", params: { search: textOf("ada", "ÜNAL", "hopper"), id: textOf("u-ada", "u-zoe", ","), ...pageArbs }, rules: PAGE_RULES },
  { path: "/api/v1/boards", params: pageArbs, rules: PAGE_RULES },
  { path: "/api/v1/statuses", params: pageArbs, rules: PAGE_RULES },
  { path: "/api/v1/labels", params: pageArbs, rules: PAGE_RULES },
  { path: "/api/v1/posts/p-dark/comments", params: pageArbs, rules: PAGE_RULES },
];

function caseOf(params: Record<string, fc.Arbitrary<string>>, alias = "search" in params): fc.Arbitrary<Case> {
  return fc.record({
    signed: fc.boolean(),
    params: fc.record(params, { requiredKeys: [] }),
    useAlias: fc.boolean(),
    extra: fc.option(textOf(), { nil: undefined }),
  }).map(({ signed, params: p, useAlias, extra }) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(p)) if (v !== undefined) out[k === "search" && alias && useAlias ? "q" : k] = v;
    if (extra !== undefined) out.utm_source = extra;
    return { signed, params: out };
  });
}

describe("properties: arbitrary text never breaks the API", () => {
  for (const endpoint of LISTS) {
    it(`GET ${endpoint.path}: 401 without a key; else a NUL is a 400 naming the field, other text a 200 or a validation 400`, async () => {
      await fc.assert(
        fc.asyncProperty(caseOf(endpoint.params), async ({ signed, params }) => {
          const { query, values } = queryOf(params);
          const path = `${endpoint.path}?${query}`;
          const res = await app.request(path, signed ? {} : { key: null });
          if (!signed) {
            assert.equal(res.status, 401, path);
            await errorFields(res, path);
            return;
          }
          const known = Object.entries(values).filter(([k]) => k in endpoint.params);
          const bad = known.filter(([, v]) => forbidden(v)).map(([k]) => k);
          const invalid = known.filter(([k, v]) => endpoint.rules[k] && !endpoint.rules[k](v)).map(([k]) => k);
          if (bad.length) {
            assert.equal(res.status, 400, path);
            assert.deepEqual((await errorFields(res, path)).sort(), bad.sort(), path);
          } else if (invalid.length) {
            assert.equal(res.status, 400, path);
            assert.deepEqual((await errorFields(res, path)).sort(), invalid.sort(), path);
          } else {
            const text = await res.text();
            assert.equal(res.status, 200, `${path}: ${text}`);
            assert.ok(Array.isArray(JSON.parse(text).data), path);
          }
        }),
        RUNS,
      );
    });
  }

  const ONE: [string, string, string[], string][] = [
    ["/api/v1/posts/:postId", "postId", dataset.posts.map((p) => p.id), "/api/v1/posts/{}"],
    ["/api/v1/posts/:postId/comments", "postId", dataset.posts.map((p) => p.id), "/api/v1/posts/{}/comments"],
    ["/api/v1/changelogs/:changelogId", "changelogId", dataset.changelogs.map((c) => c.id), "/api/v1/changelogs/{}"],
  ];
  for (const [name, param, ids, template] of ONE) {
    it(`GET ${name}: 401 without a key; else not UTF-8 is a 400 (path), NUL a 400 (${param}), else 200 or 404`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.boolean(), segmentOf(...ids.slice(0, 3)), async (signed, id) => {
          const encoded = percent(id);
          const path = template.replace("{}", encoded);
          const res = await app.request(path, signed ? {} : { key: null });
          if (!signed) {
            assert.equal(res.status, 401, path);
            await errorFields(res, path);
            return;
          }
          const value = receivedPath(encoded);
          if (value === undefined || forbidden(value)) {
            assert.equal(res.status, 400, path);
            assert.deepEqual(await errorFields(res, path), [value === undefined ? "path" : param], path);
          } else if (ids.includes(value)) {
            assert.equal(res.status, 200, path);
          } else {
            assert.equal(res.status, 404, path);
            assert.equal((await res.json()).error.code, "not_found", path);
          }
        }),
        RUNS,
      );
    });
  }

  it("GET /api/v1/<anything>/<anything>: never a 5xx, errors in the error shape", async () => {
    const word = segmentOf("posts", "changelogs", "comments", "users", "p-dark", "cl-dark", "openapi.json");
    await fc.assert(
      fc.asyncProperty(fc.boolean(), word, fc.option(word, { nil: undefined }), async (signed, a, b) => {
        const path = `/api/v1/${percent(a)}${b === undefined ? "" : `/${percent(b)}`}`;
        const res = await app.request(path, signed ? {} : { key: null });
        if (res.status >= 400) await errorFields(res, path);
        else assert.equal(res.status, 200, path);
        if (!signed && path !== "/api/v1/openapi.json") assert.equal(res.status, 401, path);
      }),
      RUNS,
    );
  });

  const pinRule = (v: unknown) => typeof v === "boolean" || (typeof v === "string" && ["true", "false"].includes(v.trim().toLowerCase()));
  const commentIds = dataset.comments.map((c) => c.id);
  const putCase = fc.record({
    signed: fc.boolean(),
    json: fc.boolean(),
    id: segmentOf("c-first", "c-later", "c-csv"),
    description: fc.option(textOf("Edited", "  padded  ", " "), { nil: undefined }),
    pin: fc.option(fc.oneof(textOf("true", "FALSE", " true "), fc.boolean()), { nil: undefined }),
    extra: fc.option(textOf(), { nil: undefined }),
  });

  it("PUT /api/v1/comments/:commentId (form and JSON): a refused write changes nothing; an accepted one stores the text exactly", async () => {
    await fc.assert(
      fc.asyncProperty(putCase, async ({ signed, json, id, description, pin, extra }) => {
        // A form carries strings only.
        const pinValue = !json && typeof pin === "boolean" ? String(pin) : pin;
        const fields: Record<string, unknown> = {};
        if (description !== undefined) fields.commentDescription = description;
        if (pinValue !== undefined) fields.pinComment = pinValue;
        if (extra !== undefined) fields.note = extra;
        const body = json
          ? JSON.stringify(fields)
          : Object.entries(fields).map(([k, v]) => `${k}=${percent(String(v))}`).join("&");
        // What the server reads: JSON keeps lone surrogates, a form turns their bytes into U+FFFD.
        const read = (v: unknown) => (json || typeof v !== "string" ? v : received(percent(v)));
        const text = read(description) as string | undefined;
        const flag = read(pinValue);

        const encodedId = percent(id);
        const path = `/api/v1/comments/${encodedId}`;
        const before = await allComments();
        const res = await app.request(path, { ...(json ? putJson(body) : putForm(body)), ...(signed ? {} : { key: null }) });
        const what = `PUT ${path} ${body}`;
        if (res.status !== 200) {
          assert.deepEqual(await allComments(), before, `${what}: a refused write changed nothing`);
        }
        if (!signed) {
          assert.equal(res.status, 401, what);
          await errorFields(res, what);
          return;
        }

        const idRead = receivedPath(encodedId);
        const badBody = [
          ...(typeof text === "string" && forbidden(text) ? ["commentDescription"] : []),
          ...(typeof flag === "string" && forbidden(flag) ? ["pinComment"] : []),
        ];
        const invalidBody =
          (text === undefined && flag === undefined) ||
          (text !== undefined && (text.trim().length < 1 || text.trim().length > 10_000)) ||
          (flag !== undefined && !pinRule(flag));
        if (idRead === undefined) {
          assert.equal(res.status, 400, what);
          assert.deepEqual(await errorFields(res, what), ["path"], what);
        } else if (badBody.length) {
          assert.equal(res.status, 400, what);
          assert.deepEqual((await errorFields(res, what)).sort(), badBody.sort(), what);
        } else if (invalidBody) {
          assert.equal(res.status, 400, what);
          await errorFields(res, what);
        } else if (forbidden(idRead)) {
          assert.equal(res.status, 400, what);
          assert.deepEqual(await errorFields(res, what), ["commentId"], what);
        } else if (!commentIds.includes(idRead)) {
          assert.equal(res.status, 404, what);
          await errorFields(res, what);
        } else {
          assert.equal(res.status, 200, `${what}: ${await res.clone().text()}`);
          const stored = await comment(idRead);
          if (text !== undefined) assert.equal(stored.commentDescription, text.trim(), what);
          if (flag !== undefined) assert.equal(stored.pinned, typeof flag === "boolean" ? flag : (flag as string).trim().toLowerCase() === "true", what);
        }
      }),
      RUNS,
    );
  });

  it("POST /api/session (JSON and form): only a real key signs in; anything else is a 400/401 or a redirect, with no cookie", async () => {
    const keyText = fc.constantFrom(...Object.values(app.keys)).chain((real) => textOf(real, ` ${real}`, `${real}\n`, "fbk_"));
    await fc.assert(
      fc.asyncProperty(fc.boolean(), keyText, async (json, key) => {
        const res = await app.request("/api/session", {
          method: "POST",
          key: null,
          redirect: "manual",
          headers: { "content-type": json ? "application/json" : "application/x-www-form-urlencoded" },
          body: json ? JSON.stringify({ key }) : `key=${percent(key)}`,
        });
        const value = (json ? key : received(percent(key))).trim();
        const real = Object.values(app.keys).includes(value);
        const what = `${json ? "JSON" : "form"} ${JSON.stringify(key)}`;
        assert.equal(res.headers.get("set-cookie") !== null, real, what);
        if (!json) {
          assert.equal(res.status, 303, what);
          const expected = real ? "/posts" : value === "" || value.length > 500 ? "/login?error=missing" : "/login?error=invalid";
          assert.equal(res.headers.get("location"), expected, what);
        } else if (real) {
          assert.equal(res.status, 200, what);
        } else {
          assert.equal(res.status, value === "" || value.length > 500 ? 400 : 401, what);
          await errorFields(res, what);
        }
      }),
      RUNS,
    );
  });
});
