import mongoose from "mongoose";
import { CHECKOUT_SESSION_LONGEST_MS } from "~/domain/checkout";
import { countOf } from "~/domain/words";
import { isDatabaseUnavailable, isDuplicateKeyError } from "./db.server";
import { abandonCheckout } from "./fulfilment.server";
import { errorMessage, log } from "./log.server";
import { customerOrders, emailOrders, emailOwner } from "./models/customer-order.server";
import { IntakeToken, Migration, Order, Subscription, User } from "./models/index.server";
import { orderTokens, tokenList } from "./models/intake-token.server";
import { subscriptionFacts, userSubscriptions } from "./models/subscription.server";
import { listUser } from "./models/user.server";

/**
 * Migrations of stored documents: versioned (an id that sorts by date, never reused), run in order, each
 * once per database. `npm run migrate` runs them, and so does every app start before it listens
 * (scripts/server.mjs), so a deploy is migrated before it serves.
 *
 * Exactly once rests on an insert, not a read-modify-write (docs/architecture.md rule 7: FerretDB has no
 * transactions and does not make a conditional update atomic): the process whose insert of the
 * migration's id into `migrations` succeeds runs it and marks it finished; every other process (a second
 * instance starting at the same moment) waits for that mark before it serves. A migration that throws
 * removes its claim, so the next start tries it again; one whose process died while running keeps its
 * claim (it may have half run), and `npm run migrate -- --release ID` removes it once someone has looked.
 * So each `up` must be safe to run again after a partial run, and must write through the models (the
 * order digest follows the `Order` model's hooks).
 */
export type MigrationDefinition = {
  /** `YYYY-MM-DD-what`, unique, never changed once deployed. */
  id: string;
  /** Runs the change; says what it did in a few words (stored and logged). */
  up: (now: Date) => Promise<string>;
};

export const MIGRATIONS: MigrationDefinition[] = [
  {
    // Checkouts abandoned before expired sessions cancelled them stayed `pending` for ever, counted in Total
    // Orders and Avg Order Value. Any unpaid order older than Stripe's longest session can no longer be
    // paid: it is cancelled the way Stripe's `checkout.session.expired` cancels one (its coupon use freed,
    // a payment that raced in put back).
    id: "2026-11-27-cancel-abandoned-checkouts",
    async up(now) {
      const before = new Date(now.getTime() - CHECKOUT_SESSION_LONGEST_MS);
      const abandoned = await Order.find(
        { status: "pending", created_at: mongoose.trusted({ $lt: before }) },
        { _id: 1 },
      ).lean();
      for (const { _id } of abandoned) await abandonCheckout(_id, "cancelled");
      return `cancelled ${abandoned.length} unpaid order${abandoned.length === 1 ? "" : "s"} older than 24 hours`;
    },
  },
  {
    // The dashboard finds a customer's orders, and the order-status page an order's newest link, through lists
    // found by `_id` (models/slots.server.ts), which the models' hooks fill from now on: the orders
    // and links stored before get theirs. One pass over each collection, once; adding again adds nothing, so a
    // partial run is safe to repeat.
    id: "2026-11-27-lists-by-id",
    async up() {
      const owned = await Order.find({ user_id: mongoose.trusted({ $ne: null }) }, { _id: 1, user_id: 1 })
        .sort({ created_at: 1 })
        .lean();
      for (const order of owned) await customerOrders.add(order.user_id!, order._id);
      const tokens = await IntakeToken.find({}, { _id: 1, order_id: 1, purpose: 1 }).sort({ created_at: 1 }).lean();
      for (const token of tokens) await orderTokens.add(tokenList(token.order_id, token.purpose), token._id);
      return `listed ${owned.length} order${owned.length === 1 ? "" : "s"} and ${tokens.length} link${tokens.length === 1 ? "" : "s"}`;
    },
  },
  {
    // The guest-order claim finds an address's orders, and the dashboard's plan card a user's plan facts, through
    // lists found by `_id` too, which the models' hooks fill from now on: the orders and facts stored
    // before get theirs. One pass over each collection, once; adding again adds nothing.
    id: "2026-11-27-email-and-plan-lists",
    async up() {
      const orders = await Order.find({}, { _id: 1, email: 1 }).sort({ created_at: 1 }).lean();
      for (const order of orders) {
        const owner = emailOwner(order.email);
        if (owner) await emailOrders.add(owner, order._id);
      }
      const facts = await Subscription.find({}, { _id: 1, user_id: 1 }).sort({ observed_at: 1 }).lean();
      for (const fact of facts) await userSubscriptions.add(fact.user_id, fact._id);
      return `listed ${countOf(orders.length, "order")} by address and ${countOf(facts.length, "plan fact")}`;
    },
  },
  {
    // An invoice event reads what is known of its subscription through a list found by `_id` (it scanned
    // every plan fact), which the model's hooks fill from now on: the facts stored before get theirs. One
    // pass, once; adding again adds nothing.
    id: "2026-11-27-subscription-fact-lists",
    async up() {
      const facts = await Subscription.find({}, { _id: 1, stripe_subscription_id: 1 }).sort({ observed_at: 1 }).lean();
      for (const fact of facts) await subscriptionFacts.add(fact.stripe_subscription_id, fact._id);
      return `listed ${countOf(facts.length, "plan fact")} by subscription`;
    },
  },
  {
    // Sign-in, sign-up, a reset and a payment find the account of an address through a list found by `_id` (they
    // scanned every user for `email`), which the User model's hooks fill from now on: the accounts made before
    // get theirs. One pass, once; adding again adds nothing.
    id: "2026-11-28-address-account-lists",
    async up() {
      const users = await User.find({}, { _id: 1, email: 1 }).sort({ created_at: 1 }).lean();
      for (const user of users) await listUser(user);
      return `listed ${countOf(users.length, "account")} by address`;
    },
  },
];

/** How long a process waits for a migration another process is running, and how often it looks. */
const WAIT_MS = 10 * 60_000;
const POLL_MS = 250;

export type MigrationRun = { ran: string[]; waitedFor: string[]; alreadyDone: string[] };

/** Runs every migration not yet run on this database, in order; returns what this call did. */
export async function runMigrations(
  options: { migrations?: MigrationDefinition[]; now?: Date; waitMs?: number } = {},
): Promise<MigrationRun> {
  const { migrations = MIGRATIONS, waitMs = WAIT_MS } = options;
  const run: MigrationRun = { ran: [], waitedFor: [], alreadyDone: [] };
  for (const migration of migrations) {
    const outcome = await runOne(migration, options.now ?? new Date(), waitMs);
    run[outcome].push(migration.id);
  }
  return run;
}

async function runOne(migration: MigrationDefinition, now: Date, waitMs: number): Promise<keyof MigrationRun> {
  const until = Date.now() + waitMs;
  let waited = false;
  for (;;) {
    try {
      await Migration.create({ _id: migration.id, started_at: new Date() });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const claim = await Migration.findById(migration.id).lean();
      if (claim?.finished_at) return waited ? "waitedFor" : "alreadyDone";
      if (claim && Date.now() > until)
        throw new Error(
          `Migration ${migration.id} was started at ${claim.started_at.toISOString()} and has not finished. ` +
            `If the process running it stopped, check what it changed, then run: npm run migrate -- --release ${migration.id}`,
        );
      // Running elsewhere (or just failed there and released: the next pass claims it).
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    log("info", "migration.started", { migration: migration.id });
    let result: string;
    try {
      result = await migration.up(now);
    } catch (error) {
      log("error", "migration.failed", { migration: migration.id, reason: errorMessage(error) });
      await Migration.deleteOne({ _id: migration.id, finished_at: null });
      throw error;
    }
    await Migration.updateOne({ _id: migration.id }, { $set: { finished_at: new Date(), result } });
    log("info", "migration.finished", { migration: migration.id, result });
    return "ran";
  }
}

/** Removes the claim of a migration that never finished (its process died), so the next run tries it again. */
export async function releaseMigration(id: string): Promise<boolean> {
  const removed = await Migration.deleteOne({ _id: id, finished_at: null });
  return removed.deletedCount === 1;
}

/**
 * The app's start (scripts/server.mjs, before it listens): every migration run or seen finished. A database
 * not up yet is waited for (tried every `retryMs`); a migration that fails stops the start (the process
 * exits and its supervisor starts it again), so no version serves documents it does not understand.
 */
export async function migrateOnStart(retryMs = 2_000): Promise<MigrationRun> {
  for (;;) {
    try {
      return await runMigrations();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      log("warn", "migration.waiting_for_database", { reason: errorMessage(error), retry_ms: retryMs });
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }
}
