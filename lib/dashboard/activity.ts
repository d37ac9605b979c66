"use client";

// The Activity page's read: the audit trail, a page at a time by cursor (GET /api/v1/audit-events,
// for keys with the admin scope).

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AuditAction } from "../audit/record";
import type { AuditEventRecord } from "../audit/schemas";
import { apiFetch, apiPath } from "./api-client";

export interface AuditEventsParams {
  action: AuditAction[];
  resourceType?: string;
  resourceId?: string;
  actorKeyId?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit: number;
}

export interface AuditEventsPage {
  data: AuditEventRecord[];
  nextCursor: string | null;
}

export const auditKeys = {
  all: ["audit-events"] as const,
  list: (params: AuditEventsParams) => ["audit-events", params] as const,
};

export function useAuditEvents(params: AuditEventsParams) {
  return useQuery({
    queryKey: auditKeys.list(params),
    queryFn: ({ signal }) => apiFetch<AuditEventsPage>(apiPath("/audit-events", { ...params }), { signal }),
    placeholderData: keepPreviousData,
  });
}
