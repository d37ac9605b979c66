import type { Metadata } from "next";
import { Suspense } from "react";
import { ChangelogsView } from "@/components/changelogs/changelogs-view";

export const metadata: Metadata = { title: "Changelogs" };

export default function ChangelogsPage() {
  return (
    <Suspense>
      <ChangelogsView />
    </Suspense>
  );
}
