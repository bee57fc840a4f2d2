import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DataExportButton } from "~/components/DataExportButton";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { exchangeToken, tokenSession } from "~/server/tokens.server";

export const meta: MetaFunction = () => pageMeta("Order Status | 24-Hour Website", "Track your 24-hour website build");

export async function loader({ request }: LoaderFunctionArgs) {
  const raw = new URL(request.url).searchParams.get("access_token");
  if (raw !== null) throw await exchangeToken(request, raw, "status");
  const access = await tokenSession(request, "status");
  return { canExport: access?.state === "valid" };
}

export default function Page() {
  const { canExport } = useLoaderData<typeof loader>();
  return (
    <PageHero title="Order Status" lead="Track your 24-hour website build">
      {canExport ? (
        <section aria-labelledby="your-data-heading">
          <h2 id="your-data-heading">Your data</h2>
          <p>Download everything we hold about your order as one file.</p>
          <DataExportButton action="/order-status/export" />
        </section>
      ) : null}
    </PageHero>
  );
}
