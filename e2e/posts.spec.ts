import { expect, test } from "@playwright/test";
import { api, expectTitles, signIn, titlesOf } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("the posts table shows the API's first page, newest first, with every column", async ({ page, request }) => {
  const table = page.getByRole("table");
  for (const name of ["Title", "Board", "Status", "Author", "Upvotes", "Comments", "Created"]) {
    await expect(table.getByRole("columnheader", { name })).toBeVisible();
  }
  const body = await api(request, "/posts?limit=10");
  await expectTitles(page, titlesOf(body));
  await expect(page.getByText(`Page 1 of 3 · ${body.pagination.total} posts`)).toBeVisible();
  // Statuses show as coloured badges.
  const row = table.getByRole("row", { name: /Dark mode for the dashboard/ });
  await expect(row.getByText("Planned")).toHaveCSS("border-color", "rgb(59, 130, 246)");
});

test("filters by board, status, author and search, each as the API does, and keeps them in the URL", async ({ page, request }) => {
  await page.getByLabel("Board").selectOption({ label: "Mobile app" });
  await expect(page).toHaveURL(/boardId=b-mobile/);
  await expectTitles(page, titlesOf(await api(request, "/posts?boardId=b-mobile")));

  await page.getByLabel("Status").selectOption({ label: "Under review" });
  await expect(page).toHaveURL(/statusId=s-review/);
  const both = titlesOf(await api(request, "/posts?boardId=b-mobile&statusId=s-review"));
  expect([...both].sort()).toEqual(["Haptic feedback on upvote", "Offline mode on the phone"]);
  await expectTitles(page, both);

  // Reload keeps the view.
  await page.reload();
  await expect(page.getByLabel("Board")).toHaveValue("b-mobile");
  await expect(page.getByLabel("Status")).toHaveValue("s-review");
  await expectTitles(page, both);

  // Back undoes the status filter, forward restores it.
  await page.goBack();
  await expect(page).not.toHaveURL(/statusId/);
  await expectTitles(page, titlesOf(await api(request, "/posts?boardId=b-mobile")));
  await page.goForward();
  await expectTitles(page, both);

  await page.getByLabel("Board").selectOption({ label: "All" });
  await page.getByLabel("Status").selectOption({ label: "All" });
  await expect(page).toHaveURL(/\/posts$/);

  // Author: type part of a non-ASCII name and pick the suggestion.
  const author = page.getByRole("combobox", { name: "Author" });
  await author.fill("jürgen");
  await page.getByRole("option", { name: "Jürgen Groß" }).click();
  await expect(page).toHaveURL(/postedById=u-jurgen/);
  const byJurgen = titlesOf(await api(request, "/posts?postedById=u-jurgen"));
  expect(byJurgen.length).toBeGreaterThan(2);
  await expectTitles(page, byJurgen);
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Author" })).toHaveValue("Jürgen Groß");
  await page.getByRole("button", { name: "Clear author filter" }).click();
  await expect(page).not.toHaveURL(/postedById/);

  // The keyboard works too: type, arrow down, Enter.
  await author.fill("佐藤");
  await expect(page.getByRole("option", { name: "佐藤 さくら" })).toBeVisible();
  await author.press("ArrowDown");
  await author.press("Enter");
  await expect(page).toHaveURL(/postedById=u-sakura/);
  await expectTitles(page, titlesOf(await api(request, "/posts?postedById=u-sakura")));
  await page.getByRole("button", { name: "Clear author filter" }).click();

  // Search is debounced: typing a phrase makes one trip, every term must match.
  const search = page.getByLabel("Search posts");
  await search.fill("DARK system");
  await expect(page).toHaveURL(/search=DARK\+system/);
  const found = titlesOf(await api(request, `/posts?search=${encodeURIComponent("DARK system")}`));
  expect(found).toEqual(["Dark mode for the dashboard"]);
  await expectTitles(page, found);

  // Nothing matches: an empty state that says what to change, and a way out.
  await search.fill("zzzz-nothing");
  await expect(page.getByRole("heading", { name: "No posts match these filters." })).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(search).toHaveValue("");
  await expect(page).toHaveURL(/\/posts$/);
});

test("sorts by top and pages forward and back, with the page in the URL", async ({ page, request }) => {
  await page.getByLabel("Sort").selectOption({ label: "Top" });
  await expect(page).toHaveURL(/sortBy=top/);
  const top = await api(request, "/posts?sortBy=top&limit=10");
  expect(top.data[0].title).toBe("Dark mode for the dashboard");
  await expectTitles(page, titlesOf(top));

  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText("Page 2 of 3 · 24 posts")).toBeVisible();
  await expectTitles(page, titlesOf(await api(request, "/posts?sortBy=top&limit=10&page=2")));

  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.getByText("Page 3 of 3 · 24 posts")).toBeVisible();
  const last = await api(request, "/posts?sortBy=top&limit=10&page=3");
  await expectTitles(page, titlesOf(last));
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();

  await page.getByRole("button", { name: "Previous page" }).click();
  await expect(page.getByText("Page 2 of 3 · 24 posts")).toBeVisible();
  await page.goBack();
  await expect(page.getByText("Page 3 of 3 · 24 posts")).toBeVisible();
  await page.goBack();
  await page.goBack();
  await expect(page.getByText("Page 1 of 3 · 24 posts")).toBeVisible();
  await expect(page.getByRole("button", { name: "Previous page" })).toBeDisabled();

  // A bigger page size shows everything on one page and starts again from page 1.
  await page.getByLabel("Rows per page").selectOption("25");
  await expect(page).toHaveURL(/limit=25/);
  await expect(page.getByText("Page 1 of 1 · 24 posts")).toBeVisible();
  await expectTitles(page, titlesOf(await api(request, "/posts?sortBy=top&limit=25")));
});

test("opens a post from the list: heading, details, content and comments, pinned first", async ({ page, request }) => {
  await page.getByRole("link", { name: "Dark mode for the dashboard" }).click();
  await expect(page).toHaveURL(/\/posts\/p-dark$/);
  await expect(page.getByRole("heading", { name: "Dark mode for the dashboard", level: 1 })).toBeVisible();
  const post = (await api(request, "/posts/p-dark")).data;
  const details = page.locator("dl.meta");
  await expect(details).toContainText(post.board.name);
  await expect(details).toContainText(post.status.name);
  await expect(details).toContainText(post.postedBy.name);
  await expect(details).toContainText(String(post.upvotes));
  await expect(page.getByText(post.content)).toBeVisible();

  const comments = (await api(request, "/posts/p-dark/comments")).data as { commentDescription: string; pinned: boolean }[];
  const items = page.getByRole("list", { name: "Comments, pinned first" }).getByRole("listitem");
  await expect(items).toHaveCount(comments.length);
  for (const [i, comment] of comments.entries()) {
    await expect(items.nth(i)).toContainText(comment.commentDescription);
  }
  await expect(items.first().getByText("Pinned", { exact: true })).toBeVisible();

  await page.getByRole("link", { name: "← Back to posts" }).click();
  await expect(page).toHaveURL(/\/posts$/);

  // From a post, its author's name leads to all their posts.
  await page.getByRole("link", { name: "Dark mode for the dashboard" }).click();
  await details.getByRole("link", { name: post.postedBy.name }).click();
  await expect(page).toHaveURL(new RegExp(`postedById=${post.postedById}`));
  await expect(page.getByRole("combobox", { name: "Author" })).toHaveValue(post.postedBy.name);
  await expectTitles(page, titlesOf(await api(request, `/posts?postedById=${post.postedById}`)));
});

test("an unknown post says so", async ({ page }) => {
  await page.goto("/posts/p-does-not-exist");
  await expect(page.getByRole("heading", { name: "This post does not exist." })).toBeVisible();
});

test("a failed load shows what went wrong and a Retry that recovers", async ({ page }) => {
  let fail = true;
  await page.route(
    (url) => url.pathname === "/api/v1/posts",
    (route) =>
      fail
        ? route.fulfill({
            status: 503,
            contentType: "application/json; charset=utf-8",
            body: JSON.stringify({ error: { code: "internal_error", message: "The database is restarting.", requestId: "e2e" } }),
          })
        : route.continue(),
  );
  await page.goto("/posts?sortBy=top");
  await expect(page.getByRole("heading", { name: "The posts could not be loaded." })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("The database is restarting.")).toBeVisible();
  fail = false;
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("link", { name: "Dark mode for the dashboard" })).toBeVisible();
});

test("works from the keyboard alone, with visible focus", async ({ page }) => {
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  const search = page.getByRole("searchbox", { name: "Search posts" });
  await expect(search).toBeFocused();
  expect(await search.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
  await page.keyboard.type("offline");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/search=offline/);
  // Board, Status, Author, Sort, then the first post's link.
  for (let i = 0; i < 5; i++) await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Offline mode on the phone" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Offline mode on the phone", level: 1 })).toBeVisible();
});
