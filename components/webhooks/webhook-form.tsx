"use client";

import { type FormEvent, useId, useState } from "react";
import { ApiRequestError, errorMessage } from "@/lib/dashboard/api-client";
import { useCreateWebhook } from "@/lib/dashboard/webhooks";
import { EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/events";
import type { WebhookWithSecretRecord } from "@/lib/webhooks/schemas";

/** Adds an endpoint; the API's message for a refused field appears under that field. */
export function WebhookForm({ onCreated }: { onCreated: (created: WebhookWithSecretRecord) => void }) {
  const id = useId();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const create = useCreateWebhook();
  const error = create.error;
  const fieldError = (field: string) => (error instanceof ApiRequestError ? error.detail(field) : undefined);
  const urlError = fieldError("url");
  const eventsError = fieldError("events");
  const descriptionError = fieldError("description");
  const otherError = error && !urlError && !eventsError && !descriptionError ? errorMessage(error) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url: url.trim(), events, description: description.trim() },
      {
        onSuccess: ({ data }) => {
          setUrl("");
          setDescription("");
          setEvents([]);
          onCreated(data);
        },
      },
    );
  };

  const toggle = (type: string, on: boolean) =>
    setEvents((current) => (on ? WEBHOOK_EVENT_TYPES.filter((t) => t === type || current.includes(t)) : current.filter((t) => t !== type)));

  return (
    <form className="detail webhook-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-url`}>Endpoint URL</label>
        <input
          id={`${id}-url`}
          className="input"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://example.com/webhooks/feedback"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={urlError ? `${id}-url-error` : `${id}-url-hint`}
          required
        />
        {urlError ? (
          <p id={`${id}-url-error`} className="field-error">
            {urlError}
          </p>
        ) : (
          <p id={`${id}-url-hint`} className="hint">
            https, at a public address. Every event is POSTed there, signed (Standard Webhooks).
          </p>
        )}
      </div>
      <fieldset className="field webhook-events" aria-describedby={eventsError ? `${id}-events-error` : undefined}>
        <legend className="field-label">Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="checkbox">
            <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
            <code>{type}</code> <span className="subtle">{EVENT_DESCRIPTIONS[type]}</span>
          </label>
        ))}
        {eventsError ? (
          <p id={`${id}-events-error`} className="field-error">
            {eventsError}
          </p>
        ) : null}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description (optional)</label>
        <input
          id={`${id}-description`}
          className="input"
          value={description}
          maxLength={500}
          onChange={(e) => setDescription(e.target.value)}
          aria-invalid={descriptionError ? true : undefined}
          aria-describedby={descriptionError ? `${id}-description-error` : undefined}
        />
        {descriptionError ? (
          <p id={`${id}-description-error`} className="field-error">
            {descriptionError}
          </p>
        ) : null}
      </div>
      {otherError ? (
        <p className="alert" role="alert">
          {otherError}
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        {create.isPending ? "Adding…" : "Add endpoint"}
      </button>
    </form>
  );
}
