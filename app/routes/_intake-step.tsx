import type { MetaFunction, ShouldRevalidateFunction } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { INTENT_VALUES } from "~/domain/intake/intents";
import type { StepPageData } from "~/domain/intake/page";

/*
 * What every intake step's route module (app/routes/intake-form_.N.tsx) exports to Remix besides its
 * loader, action and fields: the title, when the step reloads and the error boundary. Not a route itself
 * (remix.config.js ignores it). The page around the fields is components/intake/StepPage.tsx; the loader
 * and action are server/intake/step.server.ts.
 */

export const meta: MetaFunction = ({ data }) => {
  const page = data as StepPageData | undefined;
  return [
    { title: `${page ? `Step ${page.step}: ${page.name}` : "Intake Form"} | 24-Hour Website` },
    { name: "robots", content: "noindex" },
  ];
};

/**
 * After a step post, reload the step even when the post answered with a message
 * (a 400 that still saved uploads or other fields). Never after an autosave:
 * reloading remounts the form, which could drop keystrokes made meanwhile.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  formData,
  actionStatus,
  defaultShouldRevalidate,
}) => {
  if (formMethod?.toUpperCase() !== "POST") return defaultShouldRevalidate;
  // A conflict keeps the page as typed (the customer chooses); an autosave never remounts the form.
  return actionStatus !== 409 && formData?.get("intent") !== INTENT_VALUES.autosave;
};

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
