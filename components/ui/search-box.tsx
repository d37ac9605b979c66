"use client";

import { useEffect, useId, useRef, useState } from "react";

const DEBOUNCE_MS = 300;

interface Props {
  label: string;
  value: string;
  onSearch: (value: string) => void;
  placeholder?: string;
}

/**
 * A search field that reports what was typed once typing pauses. It follows the URL when the
 * URL changes from elsewhere (back button, "Clear filters"), never while echoing its own value.
 */
export function SearchBox({ label, value, onSearch, placeholder }: Props) {
  const id = useId();
  const [text, setText] = useState(value);
  const reported = useRef(value);
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;

  useEffect(() => {
    if (value !== reported.current) {
      reported.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (text.trim() === reported.current.trim()) return;
    const timer = setTimeout(() => {
      // Enter may have reported this text already; a second report would navigate again.
      if (text.trim() === reported.current.trim()) return;
      reported.current = text.trim();
      onSearchRef.current(text.trim());
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <div className="field field-wide">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type="search"
        value={text}
        placeholder={placeholder}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          // Enter searches at once instead of waiting for the pause.
          if (event.key === "Enter" && text.trim() !== reported.current.trim()) {
            reported.current = text.trim();
            onSearchRef.current(text.trim());
          }
        }}
        autoComplete="off"
        spellCheck={false}
      />
    </div>
  );
}
