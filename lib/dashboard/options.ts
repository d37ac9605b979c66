// The list filters' options (boards, statuses, changelog labels): each comes from the API list
// of the same name, and a value in the address that the list lacks stays choosable, so the
// control always shows the filter that is applied.

import type { BoardRecord } from "../boards/schemas";
import type { LabelRecord } from "../labels/schemas";
import type { StatusRecord } from "../statuses/schemas";

export interface OptionRecords {
  boards: BoardRecord;
  statuses: StatusRecord;
  labels: LabelRecord;
}
export type OptionResource = keyof OptionRecords;

export interface Option {
  value: string;
  label: string;
}

interface Rule<T> {
  valueOf: (record: T) => string;
  /**
   * What to call a value the list lacks, once the list has loaded (an id alone means nothing
   * to a person). Without it the value is a name, matched in any case and shown as it is.
   */
  unknown?: string;
}

const RULES: { [R in OptionResource]: Rule<OptionRecords[R]> } = {
  boards: { valueOf: (board) => board.id, unknown: "Unknown board" },
  statuses: { valueOf: (status) => status.id, unknown: "Unknown status" },
  // Changelogs are filtered by label name, and labels compare case-insensitively.
  labels: { valueOf: (label) => label.name },
};

/** The options to offer, and which of them the chosen values select. */
export function optionList<R extends OptionResource>(
  resource: R,
  records: readonly OptionRecords[R][] | undefined,
  chosen: readonly string[],
): { options: Option[]; selected: string[] } {
  const rule: Rule<OptionRecords[R]> = RULES[resource];
  const same = rule.unknown === undefined ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase() : (a: string, b: string) => a === b;
  const options = (records ?? []).map((record) => ({ value: rule.valueOf(record), label: record.name }));
  for (const value of chosen) {
    if (options.some((option) => same(option.value, value))) continue;
    if (rule.unknown === undefined) options.push({ value, label: value });
    else if (records) options.push({ value, label: rule.unknown });
  }
  const selected = options.filter((option) => chosen.some((value) => same(option.value, value))).map((option) => option.value);
  return { options, selected };
}
