import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { signOut } from "~/server/auth.server";

/** Sign Out: a POST that ends the session on the server, then home (spec 2: "Sign Out goes to /"). */
export async function action({ request }: ActionFunctionArgs) {
  return signOut(request, "/");
}

/** Nothing changes on GET: a stray link or prefetch cannot sign anybody out. */
export function loader() {
  return redirect("/dashboard");
}
