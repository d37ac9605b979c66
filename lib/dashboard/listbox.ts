// The keyboard rules of a combobox's list of suggestions (the WAI-ARIA combobox pattern), as
// pure functions, so they are tested without a browser; useListbox wraps them for React.

export interface ListboxState {
  open: boolean;
  /** The highlighted option, by index; -1 for none (always, while the list is closed). */
  active: number;
}

export const closedListbox: ListboxState = { open: false, active: -1 };

/** focus: the input got the focus; input: its text changed; reset: the options changed. */
export type ListboxEvent = "focus" | "input" | "reset" | "close";

export function listboxAfter(state: ListboxState, event: ListboxEvent): ListboxState {
  switch (event) {
    case "focus":
      return { ...state, open: true };
    case "input":
      return { open: true, active: -1 };
    case "reset":
      return { ...state, active: -1 };
    case "close":
      return closedListbox;
  }
}

/**
 * What a key pressed in the input does to a list of `count` options, and what the component
 * is to do then ("enter": choose, "escape": give up the list); undefined for a key that is not
 * the list's, which the input keeps.
 */
export function listboxKey(
  state: ListboxState,
  key: string,
  count: number,
): { state: ListboxState; command?: "enter" | "escape" } | undefined {
  switch (key) {
    case "ArrowDown":
      return { state: { open: true, active: Math.min(state.active + 1, count - 1) } };
    case "ArrowUp":
      // A closed list has nothing highlighted, and stays closed.
      return { state: state.open ? { ...state, active: Math.min(Math.max(state.active - 1, 0), count - 1) } : state };
    case "Enter":
      return { state, command: "enter" };
    case "Escape":
      return state.open ? { state: closedListbox, command: "escape" } : undefined;
    default:
      return undefined;
  }
}
