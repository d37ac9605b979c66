"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/lib/dashboard/api-client";

export function SignOutButton() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  async function signOut() {
    setPending(true);
    setFailed(false);
    try {
      await apiFetch("/api/session", { method: "DELETE" });
      queryClient.clear();
      // A full load, so no page of the dashboard stays in the router's cache.
      window.location.assign("/login");
    } catch {
      setPending(false);
      setFailed(true);
    }
  }
  return (
    <>
      {failed ? <span role="alert">Sign-out failed; try again.</span> : null}
      <button type="button" className="button button-small" onClick={signOut} disabled={pending}>
        Sign out
      </button>
    </>
  );
}
