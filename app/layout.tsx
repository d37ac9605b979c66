import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import "./globals.css";

// Every page renders per request: the proxy gives each response its own CSP nonce, and Next.js
// can stamp it on its scripts only while rendering (a prebuilt page's scripts would be blocked).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Feedback", template: "%s · Feedback" },
  description: "Moderate posts, comments and changelogs.",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#171a21" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
