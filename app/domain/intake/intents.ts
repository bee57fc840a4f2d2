import { TOTAL_STEPS } from "./steps";

/**
 * What an intake step post asks for, from its `intent` (the button pressed, or the
 * autosave). One parser, so the step action can switch over a typed value and the
 * buttons that make these values cannot drift apart from it.
 */
export type IntakeIntent =
  | { type: "next" } // save with the step's rules, then the next step
  | { type: "back" } // save as a draft, then the previous step
  | { type: "save-exit" } // save as a draft, then leave with a message
  | { type: "stay" } // save as a draft and show the step again (Enter in a field, "Add …" buttons)
  | { type: "autosave" } // with JavaScript, every 30 s: save as a draft, answer in place
  | { type: "submit" } // the last step's Submit Request
  | { type: "jump"; step: number } // the "Jump to Section" grid
  | { type: "remove"; field: string; id: string }; // a list item's Remove button, naming the item by its id (list-ids.ts)

/** The `value` of the button that posts each intent. */
export const INTENT_VALUES = {
  next: "next",
  back: "back",
  saveExit: "save-exit",
  stay: "stay",
  autosave: "autosave",
  submit: "submit",
  jump: (step: number) => `jump:${step}`,
  remove: (field: string, id: string) => `remove:${field}:${id}`,
} as const;

const SIMPLE = new Set<string>(["next", "back", "save-exit", "stay", "autosave", "submit"]);

/** The posted intent as a typed value, or null for anything the form never sends (a 400). */
export function parseIntakeIntent(raw: unknown): IntakeIntent | null {
  if (typeof raw !== "string") return null;
  if (SIMPLE.has(raw)) return { type: raw } as IntakeIntent;
  const jump = /^jump:(\d{1,2})$/.exec(raw);
  if (jump) {
    const step = Number(jump[1]);
    return step >= 1 && step <= TOTAL_STEPS ? { type: "jump", step } : null;
  }
  const remove = /^remove:([a-zA-Z]{1,40}):([a-z0-9]{1,40})$/.exec(raw);
  if (remove) return { type: "remove", field: remove[1], id: remove[2] };
  return null;
}

/** "next" and "submit" check the step's required fields; every other intent saves a draft. */
export const intentMode = (intent: IntakeIntent | null): "next" | "draft" =>
  intent?.type === "next" || intent?.type === "submit" ? "next" : "draft";
