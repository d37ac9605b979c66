export function LabelChips({ labels }: { labels: string[] }) {
  if (!labels.length) return <span className="subtle">None</span>;
  return (
    <ul className="chips">
      {labels.map((label) => (
        <li key={label} className="chip">
          {label}
        </li>
      ))}
    </ul>
  );
}
