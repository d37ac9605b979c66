"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";

// List views keep their filters, sort and page in the query string, so a reload, the back
// button or a shared link shows the same view.

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export function pageOf(value: string | null): number {
  return value && /^\d{1,9}$/.test(value) && Number(value) >= 1 ? Number(value) : 1;
}

export function limitOf(value: string | null): number {
  const n = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : PAGE_SIZES[0];
}

export function listOf(value: string | null): string[] {
  return value ? [...new Set(value.split(",").map((v) => v.trim()).filter(Boolean))] : [];
}

export function useUrlState() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const update = useCallback(
    (changes: Record<string, string | undefined>, mode: "push" | "replace" = "push") => {
      const next = new URLSearchParams(params.toString());
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === "") next.delete(key);
        else next.set(key, value);
      }
      const query = next.toString();
      const href = query ? `${pathname}?${query}` : pathname;
      if (mode === "push") router.push(href, { scroll: false });
      else router.replace(href, { scroll: false });
    },
    [params, router, pathname],
  );
  return { params, update };
}
