import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { standInsAllowed } from "~/server/env.server";

export const meta: MetaFunction = () => [{ name: "robots", content: "noindex" }];

/**
 * Development, tests and the local run (LOCAL_STANDINS) only: a page whose
 * loader fails the way a bug of ours would, so the error screen can be seen
 * (styled, with the way back) and its one log line checked. A 404 elsewhere.
 */
export function loader(_: LoaderFunctionArgs): never {
  if (!standInsAllowed()) throw new Response("Not Found", { status: 404 });
  throw new Error("A deliberate failure (the /dev/error page)");
}

export default function DevError() {
  return null;
}
