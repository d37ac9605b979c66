import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isRelativeReference } from "./urls";

describe("isRelativeReference", () => {
  const relative = ["/logo.png", "img/a.png", "./a.png", "../a.png", "a.png?x=1#y", "/path/with%20space.png"];
  for (const url of relative) {
    it(`keeps ${url} on this site`, () => assert.equal(isRelativeReference(url), true));
  }

  const elsewhere = [
    "https://tracker.example/pixel.gif",
    "http://tracker.example/pixel.gif",
    "//tracker.example/pixel.gif",
    "/\\tracker.example/pixel.gif",
    "\\\\tracker.example/pixel.gif",
    " //tracker.example/pixel.gif",
    "HTTPS://tracker.example/p.gif",
    "https://a.invalid/page/x.png",
    "data:image/gif;base64,R0lGODlhAQABAAAAACw=",
    "ftp://tracker.example/p.gif",
  ];
  for (const url of elsewhere) {
    it(`treats ${JSON.stringify(url)} as another origin`, () => assert.equal(isRelativeReference(url), false));
  }
});
