import { expect, type Page, test } from "@playwright/test";
import { api, signIn } from "./support";

interface Comment {
  id: string;
  commentDescription: string;
  pinned: boolean;
  pinnedAt: string | null;
}

const commentsOf = async (request: Parameters<typeof api>[0], postId: string) =>
  (await api<{ data: Comment[] }>(request, `/posts/${postId}/comments`)).data;

function commentItem(page: Page, text: string | RegExp) {
  return page.getByRole("list", { name: "Comments, pinned first" }).getByRole("listitem").filter({ hasText: text });
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await page.goto("/posts/p-csv");
  await expect(page.getByRole("heading", { name: "Export posts to CSV", level: 1 })).toBeVisible();
});

test("edits a comment: the API's validation message shows by the field, then the change saves", async ({ page, request }) => {
  const item = commentItem(page, "Please include the status");
  await item.getByRole("button", { name: "Edit" }).click();
  // One comment is in edit mode at a time, so its field and buttons are the page's only ones.
  const field = page.getByRole("textbox", { name: "Comment text" });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue("Please include the status and the board in the export.");

  // Blank text: the API refuses it, and says why, next to the field.
  await field.fill("   ");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Comment text must not be empty.")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  expect((await commentsOf(request, "p-csv")).find((c) => c.id === "c-csv-1")?.commentDescription).toBe(
    "Please include the status and the board in the export.",
  );

  // Cancel leaves the text as it was.
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(field).toHaveCount(0);
  await expect(item).toContainText("Please include the status and the board in the export.");

  const edited = "Please include the status, the board and the author — in UTF-8. Merci !";
  await item.getByRole("button", { name: "Edit" }).click();
  await field.fill(edited);
  await page.getByRole("button", { name: "Save" }).click();
  const saved = commentItem(page, edited);
  await expect(saved.getByRole("textbox")).toHaveCount(0);
  await expect(saved.getByRole("button", { name: "Edit" })).toBeFocused();
  expect((await commentsOf(request, "p-csv")).find((c) => c.id === "c-csv-1")?.commentDescription).toBe(edited);

  await page.reload();
  await expect(commentItem(page, edited)).toBeVisible();
});

test("pins a comment to the top and unpins it, checked through the API", async ({ page, request }) => {
  const item = commentItem(page, "Excel opens UTF-8 CSV badly");
  await item.getByRole("button", { name: "Pin" }).click();
  await expect(item.getByText("Pinned", { exact: true })).toBeVisible();
  await expect(item.getByRole("button", { name: "Unpin" })).toBeVisible();
  // Pinned comments come first.
  const items = page.getByRole("list", { name: "Comments, pinned first" }).getByRole("listitem");
  await expect(items.first()).toContainText("Excel opens UTF-8 CSV badly");
  let stored = (await commentsOf(request, "p-csv")).find((c) => c.id === "c-csv-2");
  expect(stored?.pinned).toBe(true);
  expect(stored?.pinnedAt).not.toBeNull();
  expect((await commentsOf(request, "p-csv"))[0]?.id).toBe("c-csv-2");

  await item.getByRole("button", { name: "Unpin" }).click();
  await expect(item.getByRole("button", { name: "Pin" })).toBeVisible();
  await expect(item.getByText("Pinned", { exact: true })).toHaveCount(0);
  await expect(items.last()).toContainText("Excel opens UTF-8 CSV badly");
  stored = (await commentsOf(request, "p-csv")).find((c) => c.id === "c-csv-2");
  expect(stored?.pinned).toBe(false);
  expect(stored?.pinnedAt).toBeNull();
});

test("a refused pin rolls back on screen, with a message", async ({ page, request }) => {
  // The server refuses this one write, as it would for a key that lost its write scope.
  await page.route("**/api/v1/comments/c-csv-1", async (route) => {
    await new Promise((r) => setTimeout(r, 300));
    await route.fulfill({
      status: 403,
      contentType: "application/json; charset=utf-8",
      body: JSON.stringify({ error: { code: "forbidden", message: 'This API key lacks the "write" scope.', requestId: "e2e" } }),
    });
  });
  const item = commentItem(page, /Please include the/);
  await item.getByRole("button", { name: "Pin" }).click();
  // Optimistic: marked pinned at once...
  await expect(item.getByText("Pinned", { exact: true })).toBeVisible();
  // ...then put back, with the reason.
  await expect(item.getByRole("alert")).toContainText('Could not pin this comment: This API key lacks the "write" scope.');
  await expect(item.getByText("Pinned", { exact: true })).toHaveCount(0);
  await expect(item.getByRole("button", { name: "Pin" })).toBeVisible();
  expect((await commentsOf(request, "p-csv")).find((c) => c.id === "c-csv-1")?.pinned).toBe(false);
});
