import { getFormProps, getInputProps, useForm } from "~/components/useForm";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useRef, useState } from "react";
import { ConfirmEmailNotice } from "~/components/account";
import { describedBy, failedFields, Field, FormAlert, FormKey } from "~/components/forms";
import { useHydrated, useIsPending } from "~/components/hooks";
import { LiveRegion } from "~/components/LiveRegion";
import { OrderSummary } from "~/components/OrderSummary";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { formatCents } from "~/domain/money";
import { findPackage } from "~/content/packages";
import { AUTH_MESSAGES } from "~/domain/account";
import { CHECKOUT_INTENTS, CHECKOUT_MESSAGES } from "~/domain/checkout";
import { CheckoutSchema } from "~/domain/checkout.schema";
import { COUPON_MESSAGES, DEFAULT_PRODUCT, offeredAddOns, quote, type CouponTerms } from "~/domain/pricing";
import { getUser, requireUser } from "~/server/auth.server";
import { rememberCheckout, startCheckout, type CheckoutResult } from "~/server/checkout.server";
import { SUBSCRIPTION_MESSAGES } from "~/domain/subscriptions";
import { planRefusal } from "~/server/subscriptions.server";
import { validateCoupon } from "~/server/coupons.server";
import { oncePerPost } from "~/server/form-keys.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { errorMessage, log } from "~/server/log.server";
import { CHECKOUT_LIMIT, clientAddress, consumeRateLimit } from "~/server/rate-limit.server";
import { SendStatus } from "~/components/connection";
import { SAME_FOR_ANYONE } from "~/components/static-page";

// Asked for with no cookie and no query, the page is the same for anyone (scripts/page-cache.mjs keeps it).
export const handle = SAME_FOR_ANYONE;

export const meta: MetaFunction = () =>
  pageMeta(
    "Checkout | 24-Hour Website",
    "Order your 24-Hour Website: choose add-ons, apply a coupon and pay securely with Stripe.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const packageId = url.searchParams.get("package");
  const withMaintenance = url.searchParams.get("maintenance") === "1" && Boolean(findPackage(packageId));
  // A plan belongs to an account, so a package with maintenance is bought signed in.
  const user = withMaintenance
    ? await requireUser(request, { kind: "info", ...AUTH_MESSAGES.signInToSubscribe })
    : await getUser(request);
  return {
    packageId,
    withMaintenance,
    email: user?.email ?? "",
    // Said before the buyer fills anything in: why this package's plan can't start for this account yet.
    planNotice:
      withMaintenance && user
        ? {
            reason: await planRefusal(user, SUBSCRIPTION_MESSAGES.alreadyWithPackage),
            unconfirmed: !user.emailVerified,
          }
        : null,
    quote: quote({ packageId, addOnIds: [], withMaintenance }),
    rules: formRules(CheckoutSchema),
  };
}

const parseCheckout = (form: FormData) => parseWithZod(form, { schema: CheckoutSchema });
type CheckoutSubmission = ReturnType<typeof parseCheckout>;

/** What the post asked for: its parsed value, or (when it did not parse) what was sent, for the page to show again. */
function postedFields(submission: CheckoutSubmission) {
  const sent: Record<string, unknown> = submission.status === "success" ? submission.value : submission.payload;
  const text = (name: string) => (typeof sent[name] === "string" ? sent[name] : "");
  return {
    intent: sent.intent,
    email: text("email").trim() || null,
    appliedCode: text("appliedCoupon"),
    priced: {
      packageId: text("package") || null,
      addOnIds: ([] as unknown[]).concat(sent.addOns ?? []).map(String),
      withMaintenance: sent.maintenance === "1",
    },
  };
}

/** The page's answer to a post: what was sent (with any errors), the quote for it, and the coupon applied. */
function replyTo(submission: CheckoutSubmission, priced: ReturnType<typeof postedFields>["priced"]) {
  return (
    init: {
      status?: number;
      applied?: CouponTerms | null;
      notice?: string;
      result?: ReturnType<CheckoutSubmission["reply"]>;
    } = {},
  ) =>
    data(
      {
        result: init.result ?? submission.reply(),
        quote: quote({ ...priced, coupon: init.applied ?? null }),
        applied: init.applied ?? null,
        notice: init.notice ?? null,
      },
      { status: init.status ?? 200 },
    );
}

/** What each intent's function gets: the request, its parsed post, and the page's answer built from it. */
type IntentArgs = {
  request: Request;
  form: FormData;
  submission: CheckoutSubmission;
  value: Extract<CheckoutSubmission, { status: "success" }>["value"];
  reply: ReturnType<typeof replyTo>;
  /** The coupon applied earlier; checked again on every post, never trusted. */
  recheck: () => Promise<CouponTerms | null>;
};

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseCheckout(form);
  const fields = postedFields(submission);
  const reply = replyTo(submission, fields.priced);

  // Every post that would evaluate a coupon code (applying one, paying, or re-checking the one applied
  // earlier) counts against the per-address limit, once, before any code is looked at: no path guesses for free.
  const countsAgainstLimit =
    fields.intent === CHECKOUT_INTENTS.applyCoupon ||
    fields.intent === CHECKOUT_INTENTS.pay ||
    fields.appliedCode !== "";
  if (countsAgainstLimit && !(await consumeRateLimit(CHECKOUT_LIMIT, clientAddress(request)))) {
    return reply({ status: 429, result: submission.reply({ formErrors: [CHECKOUT_MESSAGES.tooMany] }) });
  }

  const recheck = async () => {
    if (!fields.appliedCode) return null;
    const check = await validateCoupon(fields.appliedCode, fields.email);
    return check.ok ? check.coupon : null;
  };

  if (submission.status !== "success") return reply({ status: 400, applied: await recheck() });
  const args: IntentArgs = { request, form, submission, value: submission.value, reply, recheck };
  switch (submission.value.intent) {
    case CHECKOUT_INTENTS.update:
      return updateAction(args);
    case CHECKOUT_INTENTS.removeCoupon:
      return removeCouponAction(args);
    case CHECKOUT_INTENTS.applyCoupon:
      return applyCouponAction(args);
    case CHECKOUT_INTENTS.pay:
      return payAction(args);
  }
}

async function updateAction({ reply, recheck }: IntentArgs) {
  return reply({ applied: await recheck() });
}

function removeCouponAction({ submission, reply }: IntentArgs) {
  // Clear the code box too, so Proceed to Payment cannot pick the removed code up again.
  const result = submission.reply();
  return reply({
    notice: CHECKOUT_MESSAGES.couponRemoved,
    result: { ...result, initialValue: { ...result.initialValue, couponCode: "" } },
  });
}

async function applyCouponAction({ submission, value, reply }: IntentArgs) {
  try {
    const check = await validateCoupon(value.couponCode ?? "", value.email);
    if (!check.ok)
      return reply({ status: 400, result: submission.reply({ fieldErrors: { couponCode: [check.message] } }) });
    return reply({ applied: check.coupon, notice: COUPON_MESSAGES.applied });
  } catch (error) {
    log("error", "coupon.validate_failed", { reason: errorMessage(error) });
    return reply({ status: 503, result: submission.reply({ formErrors: [CHECKOUT_MESSAGES.couponFailed] }) });
  }
}

async function payAction({ request, form, submission, value, reply, recheck }: IntentArgs) {
  // A plan belongs to an account: a signed-out buyer of a package with maintenance signs in first, then
  // comes back to the same package.
  const pkg = value.maintenance === "1" ? findPackage(value.package) : undefined;
  const user = pkg
    ? await requireUser(
        request,
        { kind: "info", ...AUTH_MESSAGES.signInToSubscribe },
        `/checkout?package=${pkg.id}&maintenance=1`,
      )
    : await getUser(request);
  try {
    // Once per post: a resend after a lost answer goes to the same payment session, never a second order.
    const result = await oncePerPost<CheckoutResult>(`checkout:${user?.id ?? "guest"}`, form, async () => {
      const answer = await startCheckout({
        email: value.email!,
        addOnIds: value.addOns,
        couponCode: value.appliedCoupon || value.couponCode || null,
        packageId: value.package,
        user,
        withMaintenance: value.maintenance === "1",
      });
      return answer.kind === "started" ? { done: true, answer, orderId: answer.orderId } : { done: false, answer };
    });
    switch (result.kind) {
      case "started":
        // This browser started the checkout: the success page may show it the intake link, unless a coupon
        // for some addresses was used without proof of the address (then the links are only e-mailed).
        return redirect(result.redirectTo, {
          status: 303,
          headers: result.linksByEmailOnly
            ? undefined
            : { "Set-Cookie": await rememberCheckout(request, result.orderId) },
        });
      case "refused":
        return reply({
          status: 409,
          applied: await recheck(),
          result: submission.reply({ formErrors: [result.message] }),
        });
      case "couponError":
        return reply({ status: 409, result: submission.reply({ fieldErrors: { couponCode: [result.message] } }) });
      case "error":
        return reply({
          status: 502,
          applied: await recheck(),
          result: submission.reply({ formErrors: [result.message] }),
        });
    }
  } catch (error) {
    log("error", "checkout.failed", { reason: errorMessage(error) });
    return reply({ status: 503, result: submission.reply({ formErrors: [CHECKOUT_MESSAGES.checkoutError] }) });
  }
}

export default function Checkout() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const applied = actionData?.applied ?? null;
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { email: loaderData.email, package: loaderData.packageId ?? "" },
    rules: loaderData.rules,
    shouldRevalidate: "onInput",
  });
  const submitted = (actionData?.result?.initialValue ?? {}) as Record<string, unknown>;
  const initialAddOns = ([] as string[]).concat((submitted.addOns as string[] | string | undefined) ?? []);
  const [addOnIds, setAddOnIds] = useState<string[]>(initialAddOns);
  // With JavaScript the summary follows the ticks at once; the server prices the same way on every post.
  const summary = hydrated
    ? quote({ packageId: loaderData.packageId, addOnIds, coupon: applied, withMaintenance: loaderData.withMaintenance })
    : (actionData?.quote ?? loaderData.quote);
  const paying = useIsPending({ intent: CHECKOUT_INTENTS.pay });
  // Problems with fields that have no box of their own (the terms tick, the button pressed) show at the top.
  const problem = form.errors?.[0] ?? fields.intent.errors?.[0];
  const failed = failedFields(fields, { email: "Email", couponCode: "Coupon code", terms: "Terms agreement" });
  const applyButton = useRef<HTMLButtonElement>(null);

  return (
    <>
      <PageHero
        title="Checkout"
        lead="Choose any add-ons, apply a coupon if you have one, then pay securely with Stripe."
      />
      {loaderData.planNotice?.unconfirmed ? (
        <div className="wrap">
          <ConfirmEmailNotice
            email={loaderData.email}
            back={`/checkout?package=${loaderData.packageId}&maintenance=1`}
            reason={loaderData.planNotice.reason ?? undefined}
          />
        </div>
      ) : loaderData.planNotice?.reason ? (
        <div className="wrap">
          <p className="card notice" role="note">
            {loaderData.planNotice.reason}
          </p>
        </div>
      ) : null}
      <div className="wrap section checkout-grid">
        <OrderSummary quote={summary} />
        <Form method="post" {...getFormProps(form)} noValidate aria-labelledby="checkout-form-heading" className="card">
          <h2 id="checkout-form-heading">Your Order</h2>
          <FormAlert message={problem} failed={failed} />
          <FormKey />
          {/* In the page from the start, so "Coupon Applied!" is announced when it arrives. */}
          <LiveRegion className={actionData?.notice ? "flash flash-success" : undefined}>
            {actionData?.notice}
          </LiveRegion>
          {/* The form's default button: Enter in a field pays (the coupon box applies its code instead, with JavaScript). */}
          <button
            type="submit"
            name="intent"
            value={CHECKOUT_INTENTS.pay}
            className="hidden-default"
            tabIndex={-1}
            aria-hidden="true"
          >
            Proceed to Payment
          </button>
          <input type="hidden" name="package" value={loaderData.packageId ?? ""} />
          {loaderData.withMaintenance ? <input type="hidden" name="maintenance" value="1" /> : null}
          <input type="hidden" name="appliedCoupon" value={applied?.code ?? ""} />

          <Field
            id={fields.email.id}
            label="Email"
            hint="We'll send your intake form link here."
            errors={fields.email.errors}
            errorId={fields.email.errorId}
          >
            <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" aria-required="true" />
          </Field>

          <fieldset className="add-ons">
            <legend>Add-ons (optional)</legend>
            {offeredAddOns(loaderData.packageId).map((a) => (
              <label key={a.id} className="add-on">
                <input
                  type="checkbox"
                  name="addOns"
                  value={a.id}
                  defaultChecked={initialAddOns.includes(a.id)}
                  onChange={(e) =>
                    setAddOnIds((ids) => (e.target.checked ? [...ids, a.id] : ids.filter((id) => id !== a.id)))
                  }
                />
                <span>
                  <strong>{a.name}</strong> +{formatCents(a.price)}{" "}
                  {a.popular ? <span className="badge">Popular</span> : null}
                  <br />
                  <span className="hint">{a.description}</span>
                </span>
              </label>
            ))}
          </fieldset>

          <Field
            id={fields.couponCode.id}
            label="Coupon code"
            errors={fields.couponCode.errors}
            errorId={fields.couponCode.errorId}
          >
            <div className="inline-field">
              {/* Remounted when a coupon is applied or removed, so a removed code leaves the box (with or without JavaScript). */}
              <input
                {...getInputProps(fields.couponCode, { type: "text" })}
                key={applied?.code ?? ""}
                autoComplete="off"
                autoCapitalize="characters"
                onKeyDown={(e) => {
                  if (e.key !== "Enter") return;
                  e.preventDefault();
                  applyButton.current?.click();
                }}
              />
              <button
                type="submit"
                name="intent"
                value={CHECKOUT_INTENTS.applyCoupon}
                className="button"
                ref={applyButton}
              >
                Apply
              </button>
            </div>
          </Field>
          {applied ? (
            <p className="applied-coupon">
              Coupon <strong>{applied.code}</strong> applied.{" "}
              <button type="submit" name="intent" value={CHECKOUT_INTENTS.removeCoupon} className="link-button">
                Remove coupon
              </button>
            </p>
          ) : null}

          <div className="field terms">
            <label>
              <input
                type="checkbox"
                id={fields.terms.id}
                name="terms"
                defaultChecked={submitted.terms === "on"}
                aria-required="true"
                aria-invalid={fields.terms.errors ? true : undefined}
                {...describedBy(fields.terms)}
              />{" "}
              I agree to the{" "}
              <Link to="/terms" target="_blank">
                Terms of Service
              </Link>{" "}
              and{" "}
              <Link to="/privacy" target="_blank">
                Privacy Policy
              </Link>
            </label>
            <p className="field-error" id={fields.terms.errorId}>
              {fields.terms.errors?.[0]}
            </p>
          </div>

          <div className="actions">
            {hydrated ? null : (
              <button type="submit" name="intent" value={CHECKOUT_INTENTS.update} className="button">
                Update total
              </button>
            )}
            <button
              type="submit"
              name="intent"
              value={CHECKOUT_INTENTS.pay}
              className="button button-primary"
              disabled={paying}
            >
              {paying ? "Opening secure payment..." : "Proceed to Payment"}
            </button>
          </div>
          <SendStatus />
          <p className="hint">Payments are processed securely by Stripe. You'll return here if you cancel.</p>
          <p>
            {loaderData.quote.product.id === DEFAULT_PRODUCT.id ? (
              <Link to="/rapid-website">
                <span aria-hidden="true">←</span> Back to the 24-Hour Website
              </Link>
            ) : (
              <Link to="/packages">
                <span aria-hidden="true">←</span> Back to packages
              </Link>
            )}
          </p>
        </Form>
      </div>
    </>
  );
}
