import type { Metadata } from "next";
import { ApiDocs } from "@/components/api-docs/api-docs";
import { openApiDocument } from "@/lib/openapi";

export const metadata: Metadata = { title: "API docs" };

export default function ApiDocsPage() {
  return <ApiDocs document={openApiDocument()} />;
}
