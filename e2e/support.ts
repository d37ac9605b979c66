import { type APIRequestContext, expect, type Page } from "@playwright/test";

// What the tests share: the keys global-setup made, signing in as a person would, and reading
// the API directly to check that what the screen shows is what the server holds.

export function keys() {
  const write = process.env.E2E_WRITE_KEY;
  const read = process.env.E2E_READ_KEY;
  const admin = process.env.E2E_ADMIN_KEY;
  if (!write || !read || !admin) throw new Error("E2E_WRITE_KEY / E2E_READ_KEY / E2E_ADMIN_KEY missing: e2e/global-setup.ts did not run");
  return { write, read, admin };
}

export async function signIn(page: Page, key = keys().write) {
  await page.goto("/login");
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/posts$/);
  await expect(page.getByRole("heading", { name: "Posts", level: 1 })).toBeVisible();
}

/** GET an /api/v1 path with the read/write key; fails the test on a non-200. */
export async function api<T = any>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(`/api/v1${path}`, { headers: { Authorization: `Bearer ${keys().write}` } });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/** The titles in the posts or changelogs table, in order, once it has settled. */
export async function tableTitles(page: Page): Promise<string[]> {
  const table = page.getByRole("table");
  await expect(table).toHaveAttribute("aria-busy", "false");
  return table.locator("tbody tr td:first-child").allInnerTexts();
}

export async function expectTitles(page: Page, titles: string[]) {
  const table = page.getByRole("table");
  await expect(table).toHaveAttribute("aria-busy", "false");
  await expect(table.locator("tbody tr td:first-child")).toHaveText(titles);
}

export const titlesOf = (body: { data: { title: string }[] }) => body.data.map((item) => item.title);
