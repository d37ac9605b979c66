"use client";

import { type ReactNode, useId } from "react";
import { useOptions } from "@/lib/dashboard/hooks";
import { type OptionResource, optionList } from "@/lib/dashboard/options";

interface Props {
  /** The control's accessible name. */
  label: string;
  resource: OptionResource;
  chosen: readonly string[];
  onChange: (values: string[]) => void;
  /** Several at once; a single choice starts with "All" instead. */
  multiple?: boolean;
  hint?: ReactNode;
}

/** A list filter's select over one of the API's option lists (boards, statuses, labels). */
export function OptionsSelect({ label, resource, chosen, onChange, multiple = false, hint }: Props) {
  const id = useId();
  const { options, selected } = optionList(resource, useOptions(resource).data?.data, chosen);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="select"
        multiple={multiple}
        size={multiple ? Math.min(Math.max(options.length, 2), 6) : undefined}
        value={multiple ? selected : (selected[0] ?? "")}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange([...event.target.selectedOptions].map((option) => option.value).filter(Boolean))}
      >
        {multiple ? null : <option value="">All</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
