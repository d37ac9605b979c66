import type { Metadata } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = { title: "Feedback", description: "Moderate posts, comments and changelogs." };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
