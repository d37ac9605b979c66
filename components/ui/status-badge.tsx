import type { CSSProperties } from "react";

const SAFE_COLOR = /^#[0-9a-fA-F]{3,8}$/;

/** A status as a coloured pill; the colour comes from the status, the name carries the meaning. */
export function StatusBadge({ name, color }: { name: string; color?: string | null }) {
  const style = color && SAFE_COLOR.test(color) ? ({ "--badge": color } as CSSProperties) : undefined;
  return (
    <span className="badge" style={style}>
      {name}
    </span>
  );
}

const CHANGELOG_COLORS: Record<string, string> = { Draft: "#d97706", Published: "#16a34a" };

export function ChangelogStatusBadge({ status }: { status: string }) {
  return <StatusBadge name={status} color={CHANGELOG_COLORS[status]} />;
}
