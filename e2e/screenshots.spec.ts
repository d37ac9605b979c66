import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./support";

// The README's screenshots, taken from the real app on the fixture data, plus phone-width and
// dark-theme views in E2E_REVIEW_DIR (default: the temp dir) for checking the layout by eye.
// The README's copies in docs/screenshots/ are rewritten only with E2E_UPDATE_SCREENSHOTS=1, so
// an ordinary test run leaves the working tree as it was.

const review = process.env.E2E_REVIEW_DIR ?? path.join(os.tmpdir(), "feedback-e2e-screens");
const docs = process.env.E2E_UPDATE_SCREENSHOTS === "1" ? path.join(__dirname, "..", "docs", "screenshots") : review;

async function settled(page: Page) {
  // The pointer would otherwise rest wherever the last click was, highlighting a row.
  await page.mouse.move(0, 0);
  const table = page.locator("table[aria-busy]");
  if (await table.count()) await expect(table).toHaveAttribute("aria-busy", "false");
  await expect(page.locator(".skeleton")).toHaveCount(0);
}

const views = [
  { name: "posts", path: "/posts", ready: (page: Page) => expect(page.getByRole("link", { name: "Dark mode for the dashboard" })).toBeVisible() },
  {
    name: "post-pinned-comment",
    path: "/posts/p-dark",
    ready: (page: Page) => expect(page.getByText("Pinned", { exact: true })).toBeVisible(),
  },
  {
    name: "changelog",
    path: "/changelogs/cl-dark",
    ready: (page: Page) => expect(page.getByRole("heading", { name: "Dark mode", level: 2 })).toBeVisible(),
  },
];

test("README screenshots, light theme at desktop width", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
  await signIn(page);
  for (const view of views) {
    await page.goto(view.path);
    await view.ready(page);
    await settled(page);
    await page.screenshot({ path: path.join(docs, `${view.name}.png`) });
  }

  // History needs a comment with versions: edit one and pin it, as a moderator would.
  await page.goto("/posts/p-dark");
  const comment = page.getByRole("listitem").filter({ hasText: "Could the widget follow the same setting?" });
  await comment.getByRole("button", { name: "Edit" }).click();
  await page.getByRole("textbox", { name: "Comment text" }).fill("Could the embeddable widget follow the same setting, and the emails too?");
  await page.getByRole("button", { name: "Save" }).click();
  const edited = page.getByRole("listitem").filter({ hasText: "Could the embeddable widget" });
  await edited.getByRole("button", { name: "Pin" }).click();
  await expect(edited.getByRole("button", { name: "Unpin" })).toBeVisible();
  await edited.getByRole("button", { name: "History" }).click();
  const versions = page.getByRole("dialog").getByRole("list", { name: "Versions, oldest first" }).getByRole("listitem");
  await expect(versions).toHaveCount(3);
  await settled(page);
  await page.screenshot({ path: path.join(docs, "comment-history.png") });
  // The layout review expects one pinned comment on this post.
  await page.keyboard.press("Escape");
  await edited.getByRole("button", { name: "Unpin" }).click();
  await expect(edited.getByRole("button", { name: "Pin" })).toBeVisible();
});

test("layout review: 375 px phone and dark theme", async ({ page }) => {
  await signIn(page);
  for (const [label, size, scheme] of [
    ["phone", { width: 375, height: 812 }, "light"],
    ["dark", { width: 1280, height: 800 }, "dark"],
    ["phone-dark", { width: 375, height: 812 }, "dark"],
  ] as const) {
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    const more = [
      { name: "changelogs", path: "/changelogs", ready: async (_: Page) => {} },
      { name: "api-docs", path: "/api-docs", ready: async (_: Page) => {} },
    ];
    for (const view of [...views, ...more]) {
      await page.goto(view.path);
      await view.ready(page);
      await settled(page);
      await page.screenshot({ path: path.join(review, `${view.name}-${label}.png`), fullPage: label !== "dark" });
      // Nothing may stick out sideways on a phone.
      if (size.width === 375) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${view.path} at 375 px`).toBeLessThanOrEqual(0);
      }
    }
  }
  await page.context().clearCookies();
  await page.goto("/login");
  await expect(page.getByLabel("API key")).toBeFocused();
  await page.screenshot({ path: path.join(review, "login-phone-dark.png") });
});
