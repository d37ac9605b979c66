import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

// Unknown paths, and paths that are not valid percent-encoding (the proxy sends those here).
export default function NotFound() {
  return (
    <main id="main" className="login">
      <div className="state" role="status">
        <h1>This page does not exist.</h1>
        <p>The link may be wrong or out of date.</p>
        <Link className="button" href="/posts">
          Go to the posts
        </Link>
      </div>
    </main>
  );
}
