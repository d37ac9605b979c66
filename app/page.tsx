import { redirect } from "next/navigation";
import { pageSession } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

// The home page is the posts list for a signed-in moderator (which shows the error when the
// session could not be checked), the sign-in page otherwise.
export default async function Home() {
  redirect((await pageSession()).status === "signed-out" ? "/login" : "/posts");
}
