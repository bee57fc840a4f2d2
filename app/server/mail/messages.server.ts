import type { ContactInput } from "~/domain/contact.schema";
import { shortId } from "~/domain/orders";
import { INTAKE_ESTIMATED_MINUTES } from "~/domain/intake/steps";
import { formatDateTime, formatDay, formatDeadline } from "~/domain/dates";
import { formatSpan, type AlertKind } from "~/domain/delivery-clock";
import { promise, type OrderIncludes } from "~/domain/order-includes";
import type { ReceiptView } from "~/domain/receipt";
import { layout, type Block } from "./templates.server";

/** Every e-mail the app sends, one function each. */

export function contactNotice(input: ContactInput) {
  return layout(`New enquiry from ${input.name}`, [
    "A new message came in through the website's contact form.",
    `Name: ${input.name}\nEmail: ${input.email}\nPhone: ${input.phone || "(not given)"}`,
    { quote: input.message },
    "Reply to this e-mail to answer them directly.",
  ]);
}

/** The receipt (domain/receipt.ts), as the pages show it: seller, ABN, date and order number, then its rows. */
function receiptBlocks(r: ReceiptView): Block[] {
  return [
    `${r.title}\n${r.seller}, ${r.abn}\nDate: ${r.date}\nOrder: ${r.orderNumber}`,
    { rows: [...r.rows.map((row): [string, string] => [row.label, row.amount]), [r.total.label, r.total.amount]] },
  ];
}

export function orderConfirmation(input: {
  orderId: string;
  productName: string;
  intakeUrl: string;
  statusUrl: string;
  validDays: number;
  includes: OrderIncludes;
  receipt: ReceiptView;
}) {
  return layout(`Your ${input.productName} order: next, tell us about your business`, [
    `Thanks for your order (#${shortId(input.orderId)}). Your payment has been received.`,
    `Next, fill in the intake form so we can build your website. It takes about ${INTAKE_ESTIMATED_MINUTES} minutes, saves as you go, and you can come back to it any time.`,
    { link: input.intakeUrl, label: "Fill in your intake form" },
    `This link is private to you and works for ${input.validDays} days. If it expires, open it anyway and you can renew it.`,
    "You can follow your order at any time here:",
    { link: input.statusUrl, label: "See your order status" },
    `${promise.draftArrives(input.includes)} Reply to this e-mail if you have any questions.`,
    ...receiptBlocks(input.receipt),
  ]);
}

export function intakeConfirmation(input: { businessName: string; updated: boolean; includes: OrderIncludes }) {
  return layout(input.updated ? "We've received your changes" : "We've received your details", [
    input.updated
      ? `Thanks: we've received the changes to the intake form for ${input.businessName}.`
      : `Thanks: we've received the intake form for ${input.businessName}.`,
    `${promise.draftArrives(input.includes)} We'll e-mail you the link as soon as it's ready, and you can then ask for ${promise.rounds(input.includes)}.`,
    "If you think of anything else in the meantime, just reply to this e-mail.",
  ]);
}

export function intakeNotice(input: {
  businessName: string;
  orderId: string;
  updated: boolean;
  /** The steps whose answers changed since the previous submission (an update only). */
  changedSteps: string[];
  deadline: Date | null;
  adminUrl: string;
}) {
  return layout(`${input.updated ? "Intake updated" : "Intake submitted"}: ${input.businessName}`, [
    `${input.businessName} has ${input.updated ? "updated" : "submitted"} their intake form for order #${shortId(input.orderId)}.`,
    ...(input.updated
      ? [
          input.changedSteps.length
            ? `What changed since the previous submission: ${input.changedSteps.join(", ")}. The order's Brief marks each change.`
            : "No answer changed since the previous submission.",
        ]
      : []),
    input.deadline
      ? `The first draft is due by ${formatDeadline(input.deadline)} (Sydney time).${input.updated ? " The update does not move the deadline." : ""}`
      : "The order's delivery clock has not started.",
    { link: input.adminUrl, label: "Open the order" },
  ]);
}

/** To the business: an order was paid (what was bought, the amount, a link to the admin order). */
export function orderPaidNotice(input: {
  orderId: string;
  productName: string;
  addOns: string[];
  amount: string;
  email: string;
  adminUrl: string;
}) {
  return layout(`New order #${shortId(input.orderId)}: ${input.productName}, ${input.amount}`, [
    `${input.email} paid ${input.amount} for the ${input.productName}${input.addOns.length ? ` with ${input.addOns.join(", ")}` : ""}.`,
    "The delivery clock starts when they submit the intake form; you'll get another e-mail then.",
    { link: input.adminUrl, label: "Open the order" },
  ]);
}

/** To the business: an undelivered order has a quarter of its window left, or is overdue. */
export function clockAlert(input: { kind: AlertKind; orderId: string; deadline: Date; adminUrl: string; now: Date }) {
  const short = shortId(input.orderId);
  const due = formatDeadline(input.deadline);
  return input.kind === "overdue"
    ? layout(`Overdue: order #${short}'s first draft was due ${due}`, [
        `The first draft of order #${short} was due by ${due} (Sydney time) and has not been delivered. The customer is owed a full refund under the delivery guarantee.`,
        { link: input.adminUrl, label: "Open the order" },
      ])
    : layout(`Due soon: order #${short}'s first draft is due ${due}`, [
        `The first draft of order #${short} is due by ${due} (Sydney time): ${formatSpan(input.deadline.getTime() - input.now.getTime())} left.`,
        { link: input.adminUrl, label: "Open the order" },
      ]);
}

/** To the customer: the clock was restarted because materials were missing. */
export function clockRestarted(input: { missing: string; deadline: Date; statusUrl: string }) {
  return layout("We need a little more from you for your website", [
    "We've started on your website, but some of what we need is missing:",
    { quote: input.missing },
    `Please reply to this e-mail with it. Your first draft is now due by ${formatDeadline(input.deadline)} (Sydney time).`,
    { link: input.statusUrl, label: "See your order status" },
  ]);
}

/** To the customer: the first draft is ready. */
export function draftDelivered(input: { draftUrl: string; statusUrl: string }) {
  return layout("Your website's first draft is ready", [
    "Your first draft is ready: have a look.",
    { link: input.draftUrl, label: "View your draft" },
    "When the first revision round opens you can tell us what you'd like changed. You can follow your order here:",
    { link: input.statusUrl, label: "See your order status" },
  ]);
}

/** To the customer: a full refund was made. */
export function orderRefunded(input: { orderId: string; amount: string }) {
  return layout(`Your refund for order #${shortId(input.orderId)}`, [
    `We've refunded ${input.amount}, the full amount you paid for order #${shortId(input.orderId)}.`,
    "It goes back to the card you paid with and usually shows within 5 to 10 business days.",
    "Reply to this e-mail if you have any questions.",
  ]);
}

/* Reminders: short enough to read on a phone; what is missing, the link, how long it takes. */

/** To the customer who asked for their data to be deleted: it is done (queued before the address is erased). */
export function dataDeleted(input: { orderId: string }) {
  return layout("Your data has been deleted", [
    `As you asked, we've permanently deleted the details, files and messages you gave us for order #${shortId(input.orderId)}.`,
    "We keep only the order's financial record (its date, amount and payment reference), as the law requires. Your intake and order status links no longer work.",
    "You don't need to do anything. Reply to this e-mail if you have any questions.",
  ]);
}

export function intakeNotStartedReminder(input: {
  orderId: string;
  intakeUrl: string;
  linkExpiresAt: Date;
  minutes: number;
  includes: OrderIncludes;
}) {
  return layout("Your website is waiting for your details", [
    `Thanks for your order (#${shortId(input.orderId)}). We can't start your website until we have your business details.`,
    `The intake form takes about ${input.minutes} minutes, works on your phone and saves as you go.`,
    { link: input.intakeUrl, label: "Start your intake form" },
    `This link works until ${formatDay(input.linkExpiresAt)}. ${promise.draftArrives(input.includes)}`,
  ]);
}

export function intakeIncompleteReminder(input: {
  intakeUrl: string;
  linkExpiresAt: Date;
  stepsLeft: number;
  minutes: number;
  nextStepName: string;
  includes: OrderIncludes;
}) {
  return layout("Nearly there: finish your intake form", [
    `You've started your intake form. ${input.stepsLeft === 1 ? "One step is" : `${input.stepsLeft} steps are`} left, starting with "${input.nextStepName}": about ${input.minutes} minutes.`,
    "Everything you've entered is saved. Pick up where you left off:",
    { link: input.intakeUrl, label: "Finish your intake form" },
    `This link works until ${formatDay(input.linkExpiresAt)}. Your first draft arrives within ${input.includes.windowHours} hours of you pressing Submit.`,
  ]);
}

/** "Continue your intake form" when the order's link no longer works: a new one. */
export function intakeLinkResent(input: { orderId: string; intakeUrl: string; linkExpiresAt: Date }) {
  return layout("Your new intake form link", [
    `You asked to continue the intake form for order #${shortId(input.orderId)}. Your old link no longer works, so here is a new one. Everything you've entered is saved.`,
    { link: input.intakeUrl, label: "Continue your intake form" },
    `This link is private to you and works until ${formatDay(input.linkExpiresAt)}.`,
    "Didn't ask for it? You can ignore this e-mail: the link only opens your intake form.",
  ]);
}

export function linkExpiringReminder(input: {
  intakeUrl: string;
  expiresAt: Date;
  renewedUntil: Date;
  minutes: number;
}) {
  return layout("Your intake form link expires soon", [
    `The link to your intake form runs out on ${formatDay(input.expiresAt)}, and we still need your details to build your website.`,
    `We've renewed your access: this new link works until ${formatDay(input.renewedUntil)}. Finishing the form takes about ${input.minutes} minutes.`,
    { link: input.intakeUrl, label: "Open your intake form" },
  ]);
}

export function revisionAvailableReminder(input: { round: number; statusUrl: string; draftUrl: string | null }) {
  return layout(`Your draft is ready for round ${input.round} feedback`, [
    `Revision round ${input.round} is open: tell us what you'd like changed on your website draft. It takes about 5 minutes.`,
    ...(input.draftUrl ? [{ link: input.draftUrl, label: "See your draft" }] : []),
    { link: input.statusUrl, label: `Give round ${input.round} feedback` },
    "We make your changes within 24 hours of receiving your feedback.",
  ]);
}

export function confirmEmail(input: { url: string }) {
  return layout("Confirm your e-mail address", [
    "Thanks for creating an account. Please confirm this is your e-mail address: open the link and enter the password you chose.",
    { link: input.url, label: "Confirm my e-mail address" },
    "Once it's confirmed, any order you bought with this address shows in your dashboard. The link works for 7 days.",
    "If you didn't create an account, ignore this e-mail: nothing happens without your password.",
  ]);
}

export function accountExists(input: { signInUrl: string; resetUrl: string }) {
  return layout("You already have an account", [
    "Someone (hopefully you) tried to create an account with this e-mail address, but you already have one.",
    { link: input.signInUrl, label: "Sign in" },
    "Forgotten your password? You can choose a new one here:",
    { link: input.resetUrl, label: "Reset my password" },
    "If this wasn't you, ignore this e-mail: nothing has changed.",
  ]);
}

export function passwordReset(input: { url: string; validMinutes: number }) {
  return layout("Choose a new password", [
    "We received a request to reset the password for your account.",
    { link: input.url, label: "Choose a new password" },
    `The link works once, for ${input.validMinutes} minutes. If you didn't ask for this, ignore this e-mail: your password stays the same.`,
  ]);
}

export function codesBeingTried(input: { failures: number; at: Date; address: string; resetUrl: string }) {
  return layout("Someone is trying codes to sign in to your account", [
    "Someone who knows your password is trying codes to sign in to your account.",
    `${input.failures} wrong two-factor codes in a row so far, the last at ${formatDateTime(input.at)} (Sydney time) from the internet address ${input.address}.`,
    "If that wasn't you, change your password now: the codes keep them out, but they have your password. Each further wrong code makes them wait longer, and after 100 in a row only your recovery codes sign in.",
    { link: input.resetUrl, label: "Change my password" },
    "If it was you, nothing needs doing: the next code that works starts the count again.",
  ]);
}

export function revisionNotice(input: {
  orderId: string;
  businessName: string;
  round: number;
  feedback: string;
  customerEmail: string;
}) {
  return layout(`Revision ${input.round} feedback: ${input.businessName}`, [
    `${input.businessName} (${input.customerEmail}) has sent feedback for revision round ${input.round} of order #${shortId(input.orderId)}.`,
    { quote: input.feedback },
    "Reply to this e-mail to answer them directly.",
  ]);
}

/** notify-customer-revision: an admin opened revision round `round` (spec 2 section 7). */
export function revisionOpened(input: {
  businessName: string;
  round: number;
  draftUrl: string | null;
  feedbackUrl: string;
}) {
  const name = input.businessName || "your business";
  return layout(`Revision round ${input.round} is open for ${name}`, [
    input.draftUrl
      ? `Your website draft for ${name} is ready for your feedback: have a look, then tell us what you'd like changed.`
      : `Revision round ${input.round} for ${name} is now open: tell us what you'd like changed.`,
    ...(input.draftUrl ? [{ link: input.draftUrl, label: "View your draft" }] : []),
    { link: input.feedbackUrl, label: `Give round ${input.round} feedback` },
    "Each round's feedback can be sent once, so put all your changes in one message (up to 5000 characters).",
  ]);
}

/** To the business: a payment needs a look (held, or a coupon used beyond its limit). */
export function paymentHeldAlert(input: {
  orderId: string;
  label: string;
  help: string;
  expected: string;
  paid: string;
  adminUrl: string;
}) {
  return layout(`Payment to check: order #${shortId(input.orderId)} (${input.label})`, [
    `Order #${shortId(input.orderId)}: ${input.label}. Quoted ${input.expected}, paid ${input.paid}.`,
    input.help,
    { link: input.adminUrl, label: "Open Payments" },
  ]);
}

/** To the business: e-mail keeps failing (this one may only arrive once mail works again; the webhook does not wait). */
export function mailFailingAlert(input: { to: string; attempts: number; lastError: string; adminUrl: string }) {
  return layout("E-mail from the website keeps failing", [
    `A message to ${input.to} has failed ${input.attempts} attempts; the last said: ${input.lastError}`,
    "Customers may not be getting their links. Check the SMTP provider (SMTP_URL) and the outbox.",
    { link: input.adminUrl, label: "Open the outbox" },
  ]);
}

/** To the business: the scheduled job has stopped (no reminders, retention or purges run). */
export function cronSilentAlert(input: { lastRunAt: Date | null }) {
  return layout("The website's scheduled job has not run for two hours", [
    input.lastRunAt
      ? `The cron job last ran ${formatDeadline(input.lastRunAt)} (Sydney time).`
      : "The cron job has not run since the site started on this database.",
    "Reminders, delivery-clock alerts, retention and purges wait for it. Check the timer on the server (systemctl list-timers) and CRON_SECRET.",
  ]);
}
