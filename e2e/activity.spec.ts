import { expect, test } from "@playwright/test";
import { keys, signIn } from "./support";

// The Activity page: the audit trail for admin sessions, filtered from the address like the
// other lists, with links to what each event concerns.

// A comment no other browser test touches: they count its post's comments and revisions.
const COMMENT = "c-push-1";
const ORIGINAL = "Only for replies to my own posts, please.";

test("an admin sees a change made through the API, narrows the trail by action, and follows it to the comment", async ({ page, request }) => {
  const edited = `Activity check ${Date.now()}`;
  const put = (text: string) =>
    request.put(`/api/v1/comments/${COMMENT}`, {
      headers: { Authorization: `Bearer ${keys().write}` },
      data: { commentDescription: text },
    });
  expect((await put(edited)).status()).toBe(200);
  try {
    await signIn(page, keys().admin);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" }).click();
    await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
    const table = page.getByRole("table", { name: "Activity" });
    await expect(table).toHaveAttribute("aria-busy", "false");
    const row = table.getByRole("row").filter({ hasText: `Text: ${ORIGINAL} → ${edited}` });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Comment edited");
    await expect(row).toContainText("e2e-moderator via API");
    // The admin's own sign-in is there too.
    await expect(table.getByRole("row").filter({ hasText: "Signed in" }).filter({ hasText: "e2e-admin" }).first()).toBeVisible();

    await page.getByLabel("Action").selectOption(["session.created"]);
    await expect(page).toHaveURL(/action=session\.created/);
    await expect(table).toHaveAttribute("aria-busy", "false");
    const actions = await table.locator("tbody tr td:nth-child(2)").allInnerTexts();
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions)).toEqual(new Set(["Signed in"]));

    // Back to every action, then to the comment the edit concerns: its post's page.
    await page.goBack();
    await expect(row).toHaveCount(1);
    await row.getByRole("link", { name: `comment ${COMMENT}` }).click();
    await expect(page).toHaveURL(new RegExp(`/posts/p-push#comment-${COMMENT}$`));
    await expect(page.getByText(edited)).toBeVisible();
  } finally {
    expect((await put(ORIGINAL)).status()).toBe(200);
  }
});

test("a key without the admin scope has no Activity link, and the page says what it needs", async ({ page }) => {
  await signIn(page, keys().write);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Activity" })).toHaveCount(0);
  await page.goto("/activity");
  await expect(page.getByRole("heading", { name: "Activity needs an admin key." })).toBeVisible();
});
