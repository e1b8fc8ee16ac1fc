import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { signOut } from "~/security/sessions.server";

// Sign-out is a POST so that a link or an image elsewhere cannot sign a user out.
export async function action({ request }: ActionFunctionArgs) {
  return redirect("/login", { headers: { "Set-Cookie": await signOut(request) } });
}

export async function loader() {
  return redirect("/");
}
