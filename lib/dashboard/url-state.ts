"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useRef } from "react";

// List views keep their filters, sort and page in the query string, so a reload, the back
// button or a shared link shows the same view.

export function useUrlState() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // The query string last asked for. A navigation takes a moment to show up in `params`, and
  // two quick changes (board, then status) must build on each other, not on the stale one.
  const pending = useRef<string | null>(null);

  useEffect(() => {
    if (params.toString() === pending.current) pending.current = null;
  }, [params]);

  useEffect(() => {
    // Back and forward replace whatever was pending.
    const forget = () => {
      pending.current = null;
    };
    window.addEventListener("popstate", forget);
    return () => window.removeEventListener("popstate", forget);
  }, []);

  const update = useCallback(
    (changes: Record<string, string | undefined>, mode: "push" | "replace" = "push") => {
      const next = new URLSearchParams(pending.current ?? params.toString());
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === "") next.delete(key);
        else next.set(key, value);
      }
      const query = next.toString();
      pending.current = query;
      const href = query ? `${pathname}?${query}` : pathname;
      if (mode === "push") router.push(href, { scroll: false });
      else router.replace(href, { scroll: false });
    },
    [params, router, pathname],
  );
  // Any change of filter starts again from the first page.
  const setFilter = useCallback(
    (key: string, value: string | undefined, mode: "push" | "replace" = "push") => update({ [key]: value, page: undefined }, mode),
    [update],
  );
  return { params, update, setFilter };
}
