"use client";

import { useEffect, useId, useRef, useState } from "react";
import { useUser, useUserSearch } from "@/lib/dashboard/hooks";
import { useListbox } from "@/lib/dashboard/use-listbox";
import type { UserRecord } from "@/lib/users/schemas";

const DEBOUNCE_MS = 250;

interface Props {
  value: string | undefined;
  onChange: (userId: string | undefined) => void;
}

const same = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * The author filter: a combobox that searches users as you type (GET /users?search=). Arrow
 * keys move through the suggestions, Enter picks one, Escape closes the list; typing a name in
 * full picks that author without a click.
 */
export function AuthorFilter({ value, onChange }: Props) {
  const id = useId();
  const listbox = useListbox<UserRecord>(id, (user) => user.id);
  const selected = useUser(value);
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  const typed = useRef(false);
  const results = useUserSearch(search, listbox.open);
  // Until the answer for what is typed now arrives, narrow the last answer by the typed text,
  // so arrow keys and Enter never land on a name that no longer fits.
  const current = search === text.trim() && !results.isPlaceholderData && results.isSuccess;
  const users = (results.data?.data ?? []).filter(
    (u) => current || u.name.toLocaleLowerCase().includes(text.trim().toLocaleLowerCase()),
  );
  const pendingEnter = useRef(false);
  const autoPicked = useRef<string | undefined>(undefined);

  // Show the chosen author's name (after a reload, or when the URL changes from elsewhere).
  useEffect(() => {
    if (!value) {
      if (!typed.current) setText("");
      return;
    }
    if (selected.data && !typed.current) setText(selected.data.name);
  }, [value, selected.data]);

  const { reset } = listbox;
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(text.trim());
      reset();
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, reset]);

  // Once the answer for the typed text arrives: an Enter pressed while waiting picks its first
  // name, and a name typed in full picks that author.
  useEffect(() => {
    if (!current) return;
    if (pendingEnter.current) {
      pendingEnter.current = false;
      if (users[0]) choose(users[0]);
      return;
    }
    if (!typed.current || !search) return;
    const exact = users.filter((u) => same(u.name, search));
    const match = exact.length === 1 ? exact[0] : undefined;
    if (match && match.id !== value && match.id !== autoPicked.current) {
      autoPicked.current = match.id;
      onChange(match.id);
    }
  });

  function choose(user: UserRecord) {
    typed.current = false;
    setText(user.name);
    listbox.close();
    if (user.id !== value) onChange(user.id);
  }

  function clear() {
    typed.current = false;
    setText("");
    listbox.close();
    if (value) onChange(undefined);
  }

  function commitTyped() {
    typed.current = false;
    listbox.close();
    if (!text.trim()) {
      if (value) onChange(undefined);
    } else if (selected.data) {
      setText(selected.data.name);
    }
  }

  return (
    <div className="field combo">
      <label htmlFor={id}>Author</label>
      <div className="combo-input-row">
        <input
          id={id}
          className="input"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={listbox.open}
          placeholder="Any author"
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(event) => {
            typed.current = true;
            setText(event.target.value);
            listbox.input();
            if (!event.target.value.trim() && value) onChange(undefined);
          }}
          onFocus={listbox.focus}
          onBlur={commitTyped}
          {...listbox.inputProps(users, {
            enter: (active) => {
              if (!text.trim()) clear();
              else if (active) choose(active);
              else if (current) {
                if (users[0]) choose(users[0]);
              } else pendingEnter.current = true;
            },
            escape: commitTyped,
          })}
        />
        {value ? (
          <button type="button" className="button button-ghost" onClick={clear}>
            <span aria-hidden="true">×</span>
            <span className="visually-hidden">Clear author filter</span>
          </button>
        ) : null}
      </div>
      {listbox.open && (users.length > 0 || results.isFetched) ? (
        <div id={listbox.listId} className="combo-list" role="listbox" aria-label="Suggestions">
          {users.map((user, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard chooses through the combobox input (aria-activedescendant)
            <div
              key={user.id}
              role="option"
              tabIndex={-1}
              aria-selected={user.id === value}
              {...listbox.optionProps(user, i)}
              onClick={() => choose(user)}
            >
              {user.name}
            </div>
          ))}
          {results.isFetched && !users.length ? (
            <div className="combo-empty">No author matches “{search}”.</div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
