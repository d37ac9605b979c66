"use client";

import { useEffect, useId, useRef, useState } from "react";

export interface ShownSecret {
  url: string;
  secret: string;
  rotated: boolean;
}

/** A signing secret, shown this once: focused so a screen reader reads it, with a Copy button. */
export function SecretNotice({ shown, onDismiss }: { shown: ShownSecret; onDismiss: () => void }) {
  const id = useId();
  const ref = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  };

  return (
    <section ref={ref} className="detail secret-notice" aria-labelledby={`${id}-title`} tabIndex={-1}>
      <h2 id={`${id}-title`}>{shown.rotated ? "New signing secret" : "Signing secret"} for {shown.url}</h2>
      <p>
        <strong>Copy it now: you will not see it again.</strong> Your receiver verifies every delivery with it.
        {shown.rotated ? " The old secret keeps signing beside it for 24 hours, so switch your receiver before then." : ""}
      </p>
      <div className="secret-row">
        <label htmlFor={`${id}-secret`} className="visually-hidden">
          Signing secret
        </label>
        <input id={`${id}-secret`} className="input secret" readOnly value={shown.secret} onFocus={(e) => e.target.select()} />
        <button type="button" className="button" onClick={copy}>
          Copy
        </button>
        <button type="button" className="button button-ghost" onClick={onDismiss}>
          Done, I have stored it
        </button>
      </div>
      <p className="hint" aria-live="polite">
        {copied === "yes" ? "Copied to the clipboard." : copied === "failed" ? "The browser refused the clipboard: select the secret and copy it." : ""}
      </p>
    </section>
  );
}
