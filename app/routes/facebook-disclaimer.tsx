import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () =>
  pageMeta(
    "Facebook Disclaimer | 24-Hour Website",
    "This site is not part of, or endorsed by, Facebook or Meta Platforms, Inc.",
  );

export default function FacebookDisclaimer() {
  return (
    <>
      <PageHero title="Facebook Disclaimer" />
      <div className="wrap section prose">
        <p>
          This site is not a part of the Facebook website or Meta Platforms, Inc. Additionally, this site is NOT
          endorsed by Facebook in any way. FACEBOOK is a trademark of Meta Platforms, Inc.
        </p>
        <p>
          Results vary from business to business. We make no guarantee of any particular result from advertising on
          Facebook or from any website we build.
        </p>
      </div>
    </>
  );
}
