import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { keepRequestsThroughDrops } from "~/components/connection";

// Before anything fetches: a dropped link holds Remix's requests instead of failing them (components/connection.tsx).
keepRequestsThroughDrops();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
