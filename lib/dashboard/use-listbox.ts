"use client";

import { type KeyboardEvent, type MouseEvent, useMemo, useState } from "react";
import { closedListbox, type ListboxEvent, listboxAfter, listboxKey } from "./listbox";

interface KeyHandlers<T> {
  /** Enter, with the highlighted option if there is one. */
  enter: (active: T | undefined) => void;
  /** Escape closed the list. */
  escape: () => void;
}

/**
 * A combobox's list of suggestions: whether it is open, which option is highlighted, the keys
 * that move and choose, and the ARIA wiring between the input and the list. The focus stays
 * in the input; aria-activedescendant names the highlighted option. `id` prefixes the
 * elements' ids and `keyOf` tells options apart. The roles, and the attributes each role
 * requires, stay in the JSX, where the linter checks them.
 */
export function useListbox<T>(id: string, keyOf: (option: T) => string) {
  const [state, setState] = useState(closedListbox);
  // Stable, so that effects may call them without running again on every render.
  const events = useMemo(() => {
    const send = (event: ListboxEvent) => setState((current) => listboxAfter(current, event));
    return { focus: () => send("focus"), input: () => send("input"), reset: () => send("reset"), close: () => send("close") };
  }, []);
  const listId = `${id}-list`;
  const optionId = (option: T) => `${id}-opt-${keyOf(option)}`;

  return {
    open: state.open,
    ...events,
    /** The combobox input's props, over the options shown now. */
    inputProps(options: readonly T[], on: KeyHandlers<T>) {
      const active = state.open ? options[state.active] : undefined;
      return {
        "aria-controls": listId,
        "aria-activedescendant": active === undefined ? undefined : optionId(active),
        onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
          const outcome = listboxKey(state, event.key, options.length);
          if (!outcome) return;
          event.preventDefault();
          setState(outcome.state);
          if (outcome.command === "enter") on.enter(active);
          else if (outcome.command === "escape") on.escape();
        },
      } as const;
    },
    listId,
    optionProps: (option: T, index: number) =>
      ({
        id: optionId(option),
        className: index === state.active ? "active" : undefined,
        // A click must not blur the input first: blurring commits what was typed.
        onMouseDown: (event: MouseEvent) => event.preventDefault(),
      }) as const,
  };
}
