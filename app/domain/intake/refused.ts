import type { IntakeData } from "./data";
import { isIdList, LIST_IDS } from "./list-ids";

/*
 * A step post with a refused answer still saves every other answer it carried (without
 * JavaScript one bad address used to lose the whole step). The refused answers are named by the keys of the
 * submission's errors: a plain field by its name, one box of a row of boxes by its path ("socialLinks.facebook"),
 * a list (or a row of one) by the list's name. They stay as stored; the page shows them as typed, with their
 * messages, over the saved step.
 */

/** The answers a refused post's errors name (a message for the whole form names none). */
export function refusedAnswers(error: Record<string, unknown> | null | undefined): string[] {
  const named = Object.entries(error ?? {})
    .filter(([key, messages]) => key !== "" && messages)
    .map(([key]) => (key.includes("[") ? key.slice(0, key.indexOf("[")) : key));
  return [...new Set(named)];
}

const top = (answer: string) => answer.split(".")[0];
const isBoxOfRow = (answer: string) => answer.includes(".");

/**
 * The post without its refused answers, ready to parse again: a list's or a field's entries are left out
 * (the parsed value then drops them: `withoutRefused`); a box of a row of boxes takes its stored text, so the
 * row is saved with that box as it was.
 */
export function postWithoutRefused(form: FormData, refused: string[], stored: IntakeData): FormData {
  const out = new FormData();
  for (const [name, value] of form) {
    const answer = refused.find(
      (r) => name === r || name.startsWith(`${r}[`) || name.startsWith(`${LIST_IDS}.${r}[`) || name.startsWith(`${r}.`),
    );
    if (!answer) out.append(name, value);
    else if (isBoxOfRow(answer)) {
      const row = stored[top(answer) as keyof IntakeData] as Record<string, unknown> | undefined;
      const text = row?.[answer.slice(answer.indexOf(".") + 1)];
      out.append(name, typeof text === "string" ? text : "");
    }
  }
  return out;
}

/** The parsed answers without the refused fields and lists, so saving them leaves those as stored. */
export function withoutRefused<T extends Record<string, unknown>>(values: T, refused: string[]): T {
  const out: Record<string, unknown> = { ...values };
  for (const answer of refused) if (!isBoxOfRow(answer)) delete out[answer];
  return out as T;
}

/**
 * What the page shows of the refused answers, over the saved step (`overSaved`): each as posted, and each
 * row of a refused list with an id (`newId`, the server's), so every row keeps its Remove.
 */
export function refusedAsPosted(
  posted: Record<string, unknown> | null | undefined,
  refused: string[],
  newId: () => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const postedIds = (posted?.[LIST_IDS] ?? {}) as Record<string, unknown>;
  const ids: Record<string, string[]> = {};
  for (const answer of refused) {
    if (isBoxOfRow(answer)) {
      const [row, box] = [top(answer), answer.slice(answer.indexOf(".") + 1)];
      const rowPosted = posted?.[row] as Record<string, unknown> | undefined;
      out[row] = { ...(out[row] as object), [box]: rowPosted?.[box] };
      continue;
    }
    out[answer] = posted?.[answer];
    const rows = posted?.[answer];
    if (isIdList(answer) && Array.isArray(rows)) {
      const given = Array.isArray(postedIds[answer]) ? (postedIds[answer] as unknown[]) : [];
      ids[answer] = rows.map((_, i) => (typeof given[i] === "string" ? (given[i] as string) : newId()));
    }
  }
  if (Object.keys(ids).length) out[LIST_IDS] = ids;
  return out;
}

/** The saved step with the refused answers shown over it (a row of boxes and the lists' ids merged). */
export function overSaved(saved: IntakeData, refused: Record<string, unknown>): IntakeData {
  const out: Record<string, unknown> = { ...saved };
  for (const [key, value] of Object.entries(refused)) {
    const before = out[key];
    const merge = value && typeof value === "object" && !Array.isArray(value) && before && typeof before === "object";
    out[key] = merge ? { ...(before as object), ...(value as object) } : value;
  }
  return out as IntakeData;
}
