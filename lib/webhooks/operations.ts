import "server-only";
import { defineOperation } from "../api/define-operation";
import {
  createWebhookBody,
  listDeliveriesQuery,
  replayQuery,
  updateWebhookBody,
  webhookDeliveryParams,
  webhookDeliveryRecord,
  webhookParams,
  webhookRecord,
  webhookReplayRecord,
  webhookTestRecord,
  webhookWithSecretRecord,
} from "./schemas";

const ADMIN = "Needs the admin scope; every change is recorded in the audit trail.";

export const listWebhooksOperation = defineOperation({
  method: "GET",
  path: "/webhooks",
  summary: "List the webhook endpoints",
  description: `Every endpoint, oldest first, never with its secret, in one answer (nextCursor is null). ${ADMIN}`,
  scope: "admin",
  record: webhookRecord,
  list: "cursor",
});

export const createWebhookOperation = defineOperation({
  method: "POST",
  path: "/webhooks",
  summary: "Add a webhook endpoint",
  description: `Subscribes a URL to event types. The URL must be https (http only when WEBHOOK_ALLOW_HTTP=true) and resolve only to public addresses (unless WEBHOOK_ALLOW_PRIVATE=true). Answers 201 with the endpoint and its signing secret, which is never shown again. ${ADMIN}`,
  scope: "admin",
  body: createWebhookBody,
  record: webhookWithSecretRecord,
  status: 201,
});

export const getWebhookOperation = defineOperation({
  method: "GET",
  path: "/webhooks/{webhookId}",
  summary: "Get one webhook endpoint",
  description: `Never with its secret. ${ADMIN}`,
  scope: "admin",
  params: webhookParams,
  record: webhookRecord,
});

export const updateWebhookOperation = defineOperation({
  method: "PATCH",
  path: "/webhooks/{webhookId}",
  summary: "Change a webhook endpoint",
  description: `Give any of url, events, description, enabled. Enabling an endpoint again starts its failing streak over. ${ADMIN}`,
  scope: "admin",
  params: webhookParams,
  body: updateWebhookBody,
  record: webhookRecord,
});

export const deleteWebhookOperation = defineOperation({
  method: "DELETE",
  path: "/webhooks/{webhookId}",
  summary: "Remove a webhook endpoint",
  description: `Removes it with its deliveries and their log; answers 204. ${ADMIN}`,
  scope: "admin",
  params: webhookParams,
  record: webhookRecord,
  status: 204,
});

export const rotateWebhookSecretOperation = defineOperation({
  method: "POST",
  path: "/webhooks/{webhookId}/rotate-secret",
  summary: "Rotate a webhook endpoint's secret",
  description: `Answers the endpoint with its new secret, shown only now. For 24 hours the old secret signs beside the new one (two signatures in webhook-signature), so a receiver can switch without missing a delivery. ${ADMIN}`,
  scope: "admin",
  params: webhookParams,
  record: webhookWithSecretRecord,
});

export const testWebhookOperation = defineOperation({
  method: "POST",
  path: "/webhooks/{webhookId}/test",
  summary: "Send a test event",
  description: `Queues a webhook.test event for this endpoint alone, enabled or not, whatever it subscribes to; answers 202 with the event's id. Its delivery appears in the endpoint's deliveries. ${ADMIN}`,
  scope: "admin",
  params: webhookParams,
  record: webhookTestRecord,
  status: 202,
});

export const listDeliveriesOperation = defineOperation({
  method: "GET",
  path: "/webhooks/{webhookId}/deliveries",
  summary: "List a webhook endpoint's deliveries",
  description: `Newest first, each with its event id (the webhook-id header), type, status and every attempt (time, HTTP status, duration, the first 2 KB of the answer, the error), kept WEBHOOK_LOG_DAYS. Pages by cursor: pass nextCursor as cursor for the next page. ${ADMIN}`,
  scope: "admin",
  params: webhookParams,
  query: listDeliveriesQuery,
  record: webhookDeliveryRecord,
  list: "cursor",
});

export const redeliverOperation = defineOperation({
  method: "POST",
  path: "/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
  summary: "Send an event again",
  description: `Queues a new delivery of the same event (the same webhook-id and body) to this endpoint, whatever became of the first; the first keeps its status and log. Answers 202 with the new delivery. ${ADMIN}`,
  scope: "admin",
  params: webhookDeliveryParams,
  record: webhookDeliveryRecord,
  status: 202,
});

export const replayOperation = defineOperation({
  method: "POST",
  path: "/webhooks/{webhookId}/replay",
  summary: "Send every event since a time again",
  description: `For a receiver that lost its own data: queues again, once each and with their own webhook-ids, every event this endpoint was given at or after since, except those still pending for it. Answers 202 with how many. ${ADMIN}`,
  scope: "admin",
  params: webhookParams,
  query: replayQuery,
  record: webhookReplayRecord,
  status: 202,
});
