"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useSession } from "@/components/session/session-provider";
import { SignOutButton } from "./sign-out-button";

const LINKS = [
  { href: "/posts", label: "Posts" },
  { href: "/changelogs", label: "Changelogs" },
  { href: "/activity", label: "Activity", admin: true },
  { href: "/webhooks", label: "Webhooks", admin: true },
  { href: "/api-docs", label: "API docs" },
];

export function NavBar() {
  const pathname = usePathname();
  const { keyName, canWrite, isAdmin } = useSession();
  return (
    <header className="nav">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="nav-inner">
        <Link className="brand" href="/posts">
          Feedback
        </Link>
        <nav aria-label="Main">
          <ul className="nav-links">
            {LINKS.filter((link) => !link.admin || isAdmin).map((link) => (
              <li key={link.href}>
                <Link href={link.href} aria-current={pathname.startsWith(link.href) ? "page" : undefined}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="nav-session">
          <span title="The API key this session signed in with">
            {keyName}
            {canWrite ? "" : " (read-only)"}
          </span>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
