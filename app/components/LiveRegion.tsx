import type { ReactNode } from "react";

/**
 * A status message's home (WCAG 4.1.3): render it from the page's first render on, empty, and
 * put the text in later. Screen readers announce text that arrives in a live region they already
 * know; a region created together with its text is often not read. `role="status"` is polite
 * (waits for a pause); `role="alert"` interrupts, for failures the person must act on.
 * Used by the toasts (Flashes), autosave's "Last saved", the coupon notice and the admin lists'
 * result counts; anything that reports a change in place belongs in one.
 */
export function LiveRegion({
  children,
  role = "status",
  className,
  id,
}: {
  children?: ReactNode;
  role?: "status" | "alert";
  className?: string;
  id?: string;
}) {
  return (
    <div role={role} aria-atomic="true" className={className} id={id}>
      {children}
    </div>
  );
}
