import "server-only";
import { listAuditEventsOperation } from "../audit/operations";
import { listBoardsOperation } from "../boards/operations";
import { getChangelogOperation, listChangelogsOperation } from "../changelogs/operations";
import { getCommentOperation, listPostCommentsOperation, listRevisionsOperation, updateCommentOperation } from "../comments/operations";
import { listLabelsOperation } from "../labels/operations";
import { getPostOperation, listPostsOperation } from "../posts/operations";
import { listStatusesOperation } from "../statuses/operations";
import { listUsersOperation } from "../users/operations";
import {
  createWebhookOperation,
  deleteWebhookOperation,
  getWebhookOperation,
  listDeliveriesOperation,
  listWebhooksOperation,
  redeliverOperation,
  replayOperation,
  rotateWebhookSecretOperation,
  testWebhookOperation,
  updateWebhookOperation,
} from "../webhooks/operations";
import type { Operation } from "./define-operation";

/** Every operation of /api/v1, in the document's order. A new endpoint registers here. */
export const operations: readonly Operation[] = [
  listPostsOperation,
  getPostOperation,
  listPostCommentsOperation,
  listBoardsOperation,
  listStatusesOperation,
  listUsersOperation,
  listLabelsOperation,
  listChangelogsOperation,
  getChangelogOperation,
  getCommentOperation,
  updateCommentOperation,
  listRevisionsOperation,
  listAuditEventsOperation,
  listWebhooksOperation,
  createWebhookOperation,
  getWebhookOperation,
  updateWebhookOperation,
  deleteWebhookOperation,
  rotateWebhookSecretOperation,
  testWebhookOperation,
  listDeliveriesOperation,
  redeliverOperation,
  replayOperation,
];
