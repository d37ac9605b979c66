export default function Home() {
  return (
    <main>
      <h1>Feedback</h1>
      <p>The API lives under /api/v1.</p>
    </main>
  );
}
