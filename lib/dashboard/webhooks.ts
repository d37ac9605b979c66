"use client";

// The Webhooks page's reads and changes, for keys with the admin scope: the endpoints, each
// one's delivery log a page at a time by cursor, and the changes, each of which refreshes what
// it touches.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { WebhookDeliveryRecord, WebhookRecord, WebhookWithSecretRecord } from "../webhooks/schemas";
import { apiFetch, apiPath, type ItemResponse } from "./api-client";

export interface CursorPage<T> {
  data: T[];
  nextCursor: string | null;
}

export const webhookKeys = {
  all: ["webhooks"] as const,
  list: () => [...webhookKeys.all, "list"] as const,
  deliveries: (webhookId: string) => [...webhookKeys.all, "deliveries", webhookId] as const,
  deliveryPage: (webhookId: string, cursor: string | undefined) => [...webhookKeys.deliveries(webhookId), cursor ?? ""] as const,
};

const webhookPath = (id: string, rest = "") => apiPath(`/webhooks/${encodeURIComponent(id)}${rest}`);

export function useWebhooks() {
  return useQuery({
    queryKey: webhookKeys.list(),
    queryFn: ({ signal }) => apiFetch<CursorPage<WebhookRecord>>(apiPath("/webhooks"), { signal }),
  });
}

export const DELIVERY_PAGE_SIZE = 20;

export function useDeliveries(webhookId: string, cursor: string | undefined) {
  return useQuery({
    queryKey: webhookKeys.deliveryPage(webhookId, cursor),
    queryFn: ({ signal }) =>
      apiFetch<CursorPage<WebhookDeliveryRecord>>(webhookPath(webhookId, "/deliveries") + pageQuery(cursor), { signal }),
    placeholderData: keepPreviousData,
    // A pending delivery changes as the dispatcher works: keep the log current while it is open.
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === "pending") ? 5_000 : false),
  });
}

function pageQuery(cursor: string | undefined): string {
  const search = new URLSearchParams({ limit: String(DELIVERY_PAGE_SIZE) });
  if (cursor) search.set("cursor", cursor);
  return `?${search}`;
}

export interface NewWebhook {
  url: string;
  events: string[];
  description: string;
}

function useWebhookChange<V, R>(change: (variables: V) => Promise<R>, touches: (variables: V) => readonly (readonly string[])[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: (_data, _error, variables) =>
      Promise.all(touches(variables).map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function useCreateWebhook() {
  return useWebhookChange(
    (body: NewWebhook) => apiFetch<ItemResponse<WebhookWithSecretRecord>>(apiPath("/webhooks"), { method: "POST", body }),
    () => [webhookKeys.list()],
  );
}

export function useSetWebhookEnabled() {
  return useWebhookChange(
    ({ id, enabled }: { id: string; enabled: boolean }) =>
      apiFetch<ItemResponse<WebhookRecord>>(webhookPath(id), { method: "PATCH", body: { enabled } }),
    () => [webhookKeys.list()],
  );
}

export function useRemoveWebhook() {
  return useWebhookChange((id: string) => apiFetch<void>(webhookPath(id), { method: "DELETE" }), () => [webhookKeys.list()]);
}

export function useRotateSecret() {
  return useWebhookChange(
    (id: string) => apiFetch<ItemResponse<WebhookWithSecretRecord>>(webhookPath(id, "/rotate-secret"), { method: "POST" }),
    () => [webhookKeys.list()],
  );
}

export function useSendTest() {
  return useWebhookChange(
    (id: string) => apiFetch<ItemResponse<{ eventId: string }>>(webhookPath(id, "/test"), { method: "POST" }),
    (id) => [webhookKeys.deliveries(id)],
  );
}

export function useRedeliver() {
  return useWebhookChange(
    ({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
      apiFetch<ItemResponse<WebhookDeliveryRecord>>(webhookPath(webhookId, `/deliveries/${encodeURIComponent(deliveryId)}/redeliver`), {
        method: "POST",
      }),
    ({ webhookId }) => [webhookKeys.deliveries(webhookId)],
  );
}
