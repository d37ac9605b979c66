export function LabelChips({ labels }: { labels: string[] }) {
  if (!labels.length) return <span className="subtle">None</span>;
  return (
    <ul className="chips" aria-label="Labels">
      {labels.map((label) => (
        <li key={label} className="chip">
          {label}
        </li>
      ))}
    </ul>
  );
}
