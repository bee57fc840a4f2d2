import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { redirectWithFlash } from "~/server/flash.server";

export const meta: MetaFunction = () => [{ title: "Intake Form | 24-Hour Website" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) {
    throw await redirectWithFlash(request, "/checkout", {
      kind: "error",
      title: "Access Denied",
      description: "Please complete payment first to access the intake form.",
    });
  }
  return null;
}

export default function IntakeForm() {
  return <PageHero title="Intake Form" lead="Validating access..." />;
}
