import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { api, keys, signIn } from "./support";

// A comment's history and conflict-safe edits, as moderators meet them: History lists every
// version with what changed, Restore brings an old one back, and two moderators editing the
// same comment never overwrite each other unseen. Each result is checked through the API too.

interface Comment {
  commentDescription: string;
  pinned: boolean;
}

interface Revision {
  version: number;
  commentDescription: string;
  pinned: boolean;
  actor: { name: string; via: string };
}

const commentOf = async (request: APIRequestContext, id: string) => (await api<{ data: Comment }>(request, `/comments/${id}`)).data;
const revisionsOf = async (request: APIRequestContext, id: string) =>
  (await api<{ data: Revision[] }>(request, `/comments/${id}/revisions`)).data;

function commentItem(page: Page, text: string | RegExp) {
  return page.getByRole("list", { name: "Comments, pinned first" }).getByRole("listitem").filter({ hasText: text });
}

async function signedInPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, locale: "en-US", timezoneId: "UTC" });
  const page = await context.newPage();
  await signIn(page);
  return page;
}

async function openEditor(page: Page, text: string) {
  await commentItem(page, text).getByRole("button", { name: "Edit" }).click();
  const field = page.getByRole("textbox", { name: "Comment text" });
  await expect(field).toHaveValue(text);
  return field;
}

test("edit, then History shows both versions and what changed; restoring the first brings it back", async ({ page, request }) => {
  const original = "SAML as well as OIDC, please.";
  const edited = "SAML and OIDC, please, with SCIM.";
  await signIn(page);
  await page.goto("/posts/p-sso");
  const item = commentItem(page, /SAML/);
  await expect(item).toContainText(original);
  await expect(item.getByText("Edited", { exact: true })).toHaveCount(0);

  const field = await openEditor(page, original);
  await field.fill(edited);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(item).toContainText(edited);
  await expect(item.getByText("Edited", { exact: true })).toBeVisible();

  await item.getByRole("button", { name: "History" }).click();
  const dialog = page.getByRole("dialog", { name: "History of the comment by Jürgen Groß" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  const versions = dialog.getByRole("list", { name: "Versions, oldest first" }).getByRole("listitem");
  await expect(versions).toHaveCount(2);
  const first = versions.nth(0);
  await expect(first.getByRole("heading", { name: "Version 1 (original)" })).toBeVisible();
  await expect(first).toContainText("Jürgen Groß, wrote the original");
  await expect(first).toContainText(original);
  const second = versions.nth(1);
  await expect(second.getByRole("heading", { name: "Version 2 (current)" })).toBeVisible();
  await expect(second).toContainText("e2e-moderator, in the dashboard");
  // The diff: removed words struck through, added ones inserted, each also said in words.
  await expect(second.locator("del").filter({ hasText: "well" })).toHaveCount(1);
  await expect(second.locator("ins").filter({ hasText: "SCIM" })).toHaveCount(1);
  await expect(second.locator("del").first()).toContainText("[removed:");
  await expect(second.locator("ins").first()).toContainText("[added:");
  // The current version has nothing to restore.
  await expect(second.getByRole("button", { name: "Restore this version" })).toHaveCount(0);

  await first.getByRole("button", { name: "Restore this version" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Restored version 1; it is now the current version.");
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(2).getByRole("heading", { name: "Version 3 (current)" })).toBeVisible();
  await expect(versions.nth(2).locator("ins").filter({ hasText: "well" })).toHaveCount(1);
  await expect(item.locator(".comment-text")).toHaveText(original);

  // Restore is an ordinary, recorded update.
  expect((await commentOf(request, "c-sso-1")).commentDescription).toBe(original);
  const revisions = await revisionsOf(request, "c-sso-1");
  expect(revisions.map((r) => r.commentDescription)).toEqual([original, edited, original]);
  expect(revisions[2]?.actor).toEqual({ keyId: expect.any(String), name: "e2e-moderator", via: "dashboard" });

  // Escape closes the dialog and focus returns to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(item.getByRole("button", { name: "History" })).toBeFocused();
});

test("two moderators edit the same comment: the second sees the conflict, and keeps theirs or takes the current one", async ({
  browser,
  request,
}) => {
  const first = await signedInPage(browser);
  const second = await signedInPage(browser);
  try {
    const original = "Reading alone would already help.";
    for (const page of [first, second]) await page.goto("/posts/p-offline");

    // Both open the comment as it is; the first saves; the second saves over a version that is gone.
    const firstField = await openEditor(first, original);
    const secondField = await openEditor(second, original);
    await firstField.fill("Reading alone would help a lot.");
    await first.getByRole("button", { name: "Save" }).click();
    await expect(commentItem(first, "Reading alone would help a lot.").getByRole("textbox")).toHaveCount(0);

    await secondField.fill("Reading offline alone would already help.");
    await second.getByRole("button", { name: "Save" }).click();
    await expect(second.getByRole("alert").filter({ hasText: "This comment changed since you opened it." })).toBeVisible();
    await expect(second.getByRole("figure", { name: "Current text" })).toContainText("Reading alone would help a lot.");
    const mine = second.getByRole("textbox", { name: "Your text" });
    await expect(mine).toHaveValue("Reading offline alone would already help.");
    expect((await commentOf(request, "c-offline-2")).commentDescription).toBe("Reading alone would help a lot.");

    // Keep mine: saved against the version now current.
    await second.getByRole("button", { name: "Keep mine" }).click();
    await expect(mine).toHaveCount(0);
    await expect(commentItem(second, "Reading offline alone would already help.")).toBeVisible();
    expect((await commentOf(request, "c-offline-2")).commentDescription).toBe("Reading offline alone would already help.");

    // Now the other way round, and the loser takes the current text.
    await first.reload();
    const again = await openEditor(first, "Reading offline alone would already help.");
    const secondAgain = await openEditor(second, "Reading offline alone would already help.");
    await secondAgain.fill("Offline reading first, please.");
    await second.getByRole("button", { name: "Save" }).click();
    await expect(commentItem(second, "Offline reading first, please.").getByRole("textbox")).toHaveCount(0);
    await again.fill("A draft that loses.");
    await first.getByRole("button", { name: "Save" }).click();
    await expect(first.getByRole("figure", { name: "Current text" })).toContainText("Offline reading first, please.");
    await first.getByRole("button", { name: "Use current" }).click();
    await expect(first.getByRole("textbox")).toHaveCount(0);
    // The list shows the current text without a reload.
    await expect(commentItem(first, /Offline reading/).locator(".comment-text")).toHaveText("Offline reading first, please.");
    expect((await commentOf(request, "c-offline-2")).commentDescription).toBe("Offline reading first, please.");
    const texts = (await revisionsOf(request, "c-offline-2")).map((r) => r.commentDescription);
    expect(texts).toEqual([original, "Reading alone would help a lot.", "Reading offline alone would already help.", "Offline reading first, please."]);
  } finally {
    await first.context().close();
    await second.context().close();
  }
});

test("unpinning a comment changed since it was shown refreshes it instead", async ({ page, request }) => {
  await signIn(page);
  await page.goto("/posts/p-offline");
  const item = commentItem(page, "Reading offline is planned");
  await expect(item.getByRole("button", { name: "Unpin" })).toBeVisible();

  // Someone else changes the text meanwhile, through the API.
  const changed = await request.put("/api/v1/comments/c-offline-1", {
    headers: { Authorization: `Bearer ${keys().write}` },
    data: { commentDescription: "Reading offline is planned for May; voting offline is harder." },
  });
  expect(changed.status()).toBe(200);

  await item.getByRole("button", { name: "Unpin" }).click();
  await expect(item.getByRole("alert")).toContainText("This comment changed since it was shown, so it was not unpinned.");
  await expect(item.locator(".comment-text")).toHaveText("Reading offline is planned for May; voting offline is harder.");
  await expect(item.getByRole("button", { name: "Unpin" })).toBeVisible();
  expect((await commentOf(request, "c-offline-1")).pinned).toBe(true);
});

test("a read-only key sees History but cannot restore", async ({ page, request }) => {
  const changed = await request.put("/api/v1/comments/c-sso-1", {
    headers: { Authorization: `Bearer ${keys().write}` },
    data: { commentDescription: "SAML as well as OIDC, please (both)." },
  });
  expect(changed.status()).toBe(200);
  await signIn(page, keys().read);
  await page.goto("/posts/p-sso");
  const item = commentItem(page, "SAML as well as OIDC, please (both).");
  await expect(item.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await item.getByRole("button", { name: "History" }).click();
  const dialog = page.getByRole("dialog", { name: /History of the comment/ });
  const versions = dialog.getByRole("list", { name: "Versions, oldest first" }).getByRole("listitem");
  await expect(versions.last()).toContainText("e2e-moderator, through the API");
  expect(await versions.count()).toBeGreaterThanOrEqual(2);
  await expect(dialog.getByRole("button", { name: "Restore this version" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(item.getByRole("button", { name: "History" })).toBeFocused();
});
