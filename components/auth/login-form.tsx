"use client";

import { type FormEvent, useId, useRef, useState } from "react";
import { ApiRequestError, apiFetch } from "@/lib/dashboard/api-client";

export function LoginForm({ initialError }: { initialError: string | null }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const key = new FormData(event.currentTarget).get("key")?.toString().trim() ?? "";
    if (!key) {
      setError("Enter your API key.");
      input.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    try {
      await apiFetch("/api/session", { method: "POST", body: { key } });
      // A full load, so the dashboard's server layout sees the new cookie.
      window.location.assign("/posts");
    } catch (caught) {
      setPending(false);
      setError(
        caught instanceof ApiRequestError && caught.status === 401
          ? "That API key is not valid or has been revoked. Check it and try again."
          : caught instanceof ApiRequestError
            ? caught.message
            : "Could not sign in. Try again.",
      );
      input.current?.select();
    }
  }

  return (
    <form className="login-card" method="post" action="/api/session" onSubmit={submit} noValidate>
      <div>
        <h1>Sign in to Feedback</h1>
        <p className="subtle">Moderate posts, comments and changelogs with your API key.</p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-key`}>API key</label>
        <input
          ref={input}
          id={`${id}-key`}
          className="input"
          name="key"
          type="password"
          autoComplete="current-password"
          spellCheck={false}
          placeholder="fbk_…"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          // biome-ignore lint/a11y/noAutofocus: the page exists for this one field
          autoFocus
        />
        <p id={`${id}-hint`} className="hint">
          Create one with <code>npm run -s feedback -- keys create --name you</code>.
        </p>
        {error ? (
          <p id={`${id}-error`} className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
