import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getSession, sessionStorage } from "~/utils/session.server";

// Sign-out is a POST so that a link or an image elsewhere cannot sign a user out.
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  return redirect("/login", { headers: { "Set-Cookie": await sessionStorage().destroySession(session) } });
}

export async function loader() {
  return redirect("/");
}
