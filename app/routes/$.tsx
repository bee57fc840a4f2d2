import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NotFound } from "~/root";
import { log } from "~/server/log.server";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () => [
  { title: "Page not found | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

/** Any path no other route claims: logged, answered with 404 and the not-found page. */
export async function loader({ request }: LoaderFunctionArgs) {
  log("warn", "route.not_found", { path: new URL(request.url).pathname });
  throw new Response("Not Found", { status: 404 });
}

export async function action({ request }: LoaderFunctionArgs) {
  return loader({ request, params: {}, context: {} });
}

export default function CatchAll() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
