import { expect, test } from "@playwright/test";
import { api, expectTitles, signIn, titlesOf } from "./support";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Changelogs" }).click();
  await expect(page.getByRole("heading", { name: "Changelogs", level: 1 })).toBeVisible();
});

test("lists changelogs as the API does: drafts first, with every column", async ({ page, request }) => {
  const table = page.getByRole("table");
  for (const name of ["Title", "Status", "Labels", "Published"]) {
    await expect(table.getByRole("columnheader", { name })).toBeVisible();
  }
  const body = await api(request, "/changelogs");
  expect(body.data[0].status).toBe("Draft");
  await expectTitles(page, titlesOf(body));
  await expect(page.getByText(`Page 1 of 1 · ${body.pagination.total} changelogs`)).toBeVisible();
});

test("filters by status, labels and search, in the URL", async ({ page, request }) => {
  await page.getByLabel("Status").selectOption({ label: "Published" });
  await expect(page).toHaveURL(/status=Published/);
  await expectTitles(page, titlesOf(await api(request, "/changelogs?status=Published")));

  await page.getByLabel("Labels").selectOption(["Fixed", "API"]);
  await expect(page).toHaveURL(/labels=API%2CFixed|labels=Fixed%2CAPI/);
  const labelled = titlesOf(await api(request, "/changelogs?status=Published&labels=Fixed,API"));
  expect(labelled.length).toBe(4);
  await expectTitles(page, labelled);

  await page.reload();
  await expect(page.getByLabel("Status")).toHaveValue("Published");
  await expectTitles(page, labelled);

  await page.getByLabel("Search changelogs").fill("csv ROW");
  await expect(page).toHaveURL(/search=csv\+ROW/);
  const found = titlesOf(await api(request, "/changelogs?status=Published&labels=Fixed,API&search=csv%20ROW"));
  expect(found).toEqual(["CSV export keeps every row"]);
  await expectTitles(page, found);

  await page.getByLabel("Status").selectOption({ label: "Draft" });
  await expect(page.getByRole("heading", { name: "No changelogs match these filters." })).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/changelogs$/);
  await expectTitles(page, titlesOf(await api(request, "/changelogs")));

  await page.getByLabel("Status").selectOption({ label: "Draft" });
  await expectTitles(page, titlesOf(await api(request, "/changelogs?status=Draft")));
});

test("opens a changelog: Markdown rendered, raw HTML and script links inert", async ({ page, request }) => {
  await page.getByRole("link", { name: "Dark mode arrives in the dashboard" }).click();
  await expect(page).toHaveURL(/\/changelogs\/cl-dark$/);
  await expect(page.getByRole("heading", { name: "Dark mode arrives in the dashboard", level: 1 })).toBeVisible();
  const changelog = (await api(request, "/changelogs/cl-dark")).data;
  const article = page.getByRole("article");
  await expect(article).toContainText("Published");
  for (const label of changelog.labels) await expect(article.getByRole("listitem").filter({ hasText: label })).toBeVisible();
  // Markdown becomes structure...
  await expect(article.getByRole("heading", { name: "Dark mode", level: 2 })).toBeVisible();
  await expect(article.locator("strong", { hasText: "light or dark" })).toBeVisible();
  await expect(article.getByRole("link", { name: "the request" })).toHaveAttribute("href", "https://example.com/posts/p-dark");
  // ...while raw HTML never reaches the page and a javascript: link goes nowhere.
  await expect(article.locator("script, img[onerror]")).toHaveCount(0);
  const trap = article.getByText("Do not click");
  expect(await trap.getAttribute("href")).toBeFalsy();
  await trap.click();
  expect(await page.evaluate(() => (window as unknown as { __changelogScriptRan?: boolean }).__changelogScriptRan)).toBeUndefined();
});
