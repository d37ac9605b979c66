import { expect, test } from "@playwright/test";
import { keys, signIn } from "./support";

test("a signed-out visitor is sent to /login from every page", async ({ page }) => {
  for (const path of ["/", "/posts", "/posts/p-dark", "/changelogs", "/changelogs/cl-dark", "/api-docs"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login$/);
  }
  await expect(page.getByRole("heading", { name: "Sign in to Feedback" })).toBeVisible();
});

test("a wrong key shows an error and no session starts", async ({ page, context }) => {
  await page.goto("/login");
  await page.getByLabel("API key").fill(`fbk_${"x".repeat(43)}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("That API key is not valid or has been revoked.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect((await context.cookies()).some((c) => c.name === "feedback_session")).toBe(false);

  await page.getByLabel("API key").fill("");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter your API key.")).toBeVisible();
});

test("signing in starts an httpOnly session, and signing out ends it", async ({ page, context }) => {
  await signIn(page);
  const cookie = (await context.cookies()).find((c) => c.name === "feedback_session");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  expect(cookie?.value).not.toContain(keys().write);

  // The same session works for the API from the page, without any Bearer header.
  const me = await page.evaluate(async () => (await fetch("/api/session")).json());
  expect(me.data).toMatchObject({ keyName: "e2e-moderator", scopes: ["read", "write"] });

  // "/" is the posts list once signed in; /login sends a signed-in moderator there too.
  await page.goto("/");
  await expect(page).toHaveURL(/\/posts$/);
  await page.goto("/login");
  await expect(page).toHaveURL(/\/posts$/);

  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Posts" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "API docs" }).click();
  await expect(page.getByRole("heading", { name: "API docs", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "GET /api/v1/posts/{postId}/comments" })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await context.cookies()).some((c) => c.name === "feedback_session")).toBe(false);
  // The old cookie is dead on the server too.
  const stale = await page.request.get("/api/v1/posts", { headers: { cookie: `feedback_session=${cookie?.value}` } });
  expect(stale.status()).toBe(401);
  await page.goto("/posts");
  await expect(page).toHaveURL(/\/login$/);
});

test("a read-only key can read everything but sees no edit or pin controls", async ({ page }) => {
  await signIn(page, keys().read);
  await expect(page.getByText("e2e-readonly (read-only)")).toBeVisible();
  await page.getByRole("link", { name: "Dark mode for the dashboard" }).click();
  await expect(page.getByRole("heading", { name: "Dark mode for the dashboard", level: 1 })).toBeVisible();
  const comments = page.getByRole("list", { name: "Comments, pinned first" });
  await expect(comments.getByRole("listitem")).toHaveCount(4);
  await expect(page.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Pin|Unpin)$/ })).toHaveCount(0);
  // And the API agrees: the session cannot write.
  const refused = await page.evaluate(async () => {
    const res = await fetch("/api/v1/comments/c-dark-1", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ pinComment: true }),
    });
    return res.status;
  });
  expect(refused).toBe(403);
});

test.describe("without script", () => {
  test.use({ javaScriptEnabled: false });

  test("signing in works before the page's script has loaded", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("API key").fill("fbk_wrong_wrong_wrong_wrong_wrong_wrong_wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/login\?error=invalid$/);
    await expect(page.getByText("That API key is not valid or has been revoked.")).toBeVisible();
    await page.getByLabel("API key").fill(keys().write);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/posts$/);
    await expect(page.getByRole("heading", { name: "Posts", level: 1 })).toBeVisible();
    // The key never appears in the address.
    expect(page.url()).not.toContain("fbk_");
  });
});
