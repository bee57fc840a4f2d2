import { UNSAFE_RemixContext, useNavigation } from "@remix-run/react";
import { useContext } from "react";
import { useHydrated } from "~/components/hooks";

/**
 * The code of the steps Next and Back open (their route modules and the chunks those import),
 * fetched while the person reads this one. With JavaScript on, a Next is the
 * post, then the next step's data; without this, the next step's module was asked for only once
 * the post's redirect was known, and a chunk only that step imports (step 13's preview) only once
 * that module had arrived: a round trip after the data on a satellite link. `modulepreload` fetches
 * and compiles without running, and a module the page already has is not fetched again.
 *
 * The modules are read from Remix's route manifest, which holds a step's route only once the
 * page's route discovery has patched it in (StepRoutes, in StepPage.tsx): that patch updates the
 * router's state, and `useNavigation` renders this again then. Nothing before hydration, so the
 * server's document (and its page weight) is unchanged.
 */
export function NeighbourStepModules({ step }: { step: number }) {
  const hydrated = useHydrated();
  useNavigation(); // re-rendered when route discovery patches the routes in
  const manifest = useContext(UNSAFE_RemixContext)?.manifest;
  if (!hydrated || !manifest) return null;
  const hrefs = new Set<string>();
  for (const neighbour of [step - 1, step + 1]) {
    const route = Object.values(manifest.routes).find((r) => r.path === `intake-form/${neighbour}`);
    if (route) for (const href of [...(route.imports ?? []), route.module]) hrefs.add(href);
  }
  return (
    <>
      {[...hrefs].map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
    </>
  );
}
