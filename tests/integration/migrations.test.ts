import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CHECKOUT_SESSION_LONGEST_MS } from "~/domain/checkout";
import { MIGRATIONS, runMigrations, type MigrationDefinition } from "~/server/migrations.server";
import { Migration, Order } from "~/server/models/index.server";
import { mongoBase, useTestDatabase } from "../support/db";

/**
 * Migrations of stored documents: each runs once per database, whoever starts it and however many start at
 * once (an insert under the migration's id, docs/architecture.md rule 7); the first one cancels abandoned checkouts.
 */
useTestDatabase();
const run = promisify(execFile);
const HOUR = 3_600_000;

describe("migrations", () => {
  it("cancel unpaid orders older than Stripe's longest session, once, with ten callers at once", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - CHECKOUT_SESSION_LONGEST_MS - HOUR);
    const abandoned = await Order.create({ email: "gone@example.test", amount_total: 30_000, created_at: old });
    const recent = await Order.create({ email: "paying@example.test", amount_total: 30_000 });
    const paid = await Order.create({
      email: "paid@example.test",
      amount_total: 30_000,
      status: "paid",
      created_at: old,
    });
    expect((await Order.findById(abandoned._id).lean())?.created_at).toEqual(old);

    const runs = await Promise.all(Array.from({ length: 10 }, () => runMigrations({ now })));
    const id = MIGRATIONS[0].id;
    expect(runs.filter((r) => r.ran.includes(id))).toHaveLength(1);
    // The others waited for it to finish before returning (an app instance serves only after).
    for (const r of runs) expect([...r.ran, ...r.waitedFor, ...r.alreadyDone]).toContain(id);
    const record = await Migration.findById(id).lean();
    expect(record?.finished_at).toBeInstanceOf(Date);
    expect(record?.result).toBe("cancelled 1 unpaid order older than 24 hours");

    expect((await Order.findById(abandoned._id).lean())?.status).toBe("cancelled");
    expect((await Order.findById(recent._id).lean())?.status).toBe("pending");
    expect((await Order.findById(paid._id).lean())?.status).toBe("paid");
    expect((await runMigrations()).alreadyDone).toEqual(MIGRATIONS.map((m) => m.id));
  });

  it("run each migration's change once under 20 concurrent callers, and in order", async () => {
    const calls: string[] = [];
    const slow = (id: string): MigrationDefinition => ({
      id,
      async up() {
        calls.push(id);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return "done";
      },
    });
    const list = [slow("2099-01-01-first"), slow("2099-01-02-second")];
    await Promise.all(Array.from({ length: 20 }, () => runMigrations({ migrations: list })));
    expect(calls).toEqual(["2099-01-01-first", "2099-01-02-second"]);
  });

  it("release the claim of a migration that failed, so the next start runs it again", async () => {
    let attempts = 0;
    const flaky: MigrationDefinition = {
      id: "2099-02-01-flaky",
      async up() {
        attempts++;
        if (attempts === 1) throw new Error("the first try fails");
        return "fine";
      },
    };
    await expect(runMigrations({ migrations: [flaky] })).rejects.toThrow("the first try fails");
    expect(await Migration.findById(flaky.id).lean()).toBeNull();
    expect((await runMigrations({ migrations: [flaky] })).ran).toEqual([flaky.id]);
    expect(attempts).toBe(2);
  });

  it("npm run migrate from two processes at once on a fresh database: one runs it, the other waits for it", async () => {
    const env = { ...process.env, MONGODB_URI: `${mongoBase()}/t_migrate_${Date.now()}` };
    const outputs = await Promise.all(
      [0, 1].map(() => run("node_modules/.bin/tsx", ["scripts/migrate.ts"], { env, timeout: 120_000 })),
    );
    const text = outputs.map((o) => o.stdout).join("\n");
    expect(text.match(/^ran 2026-11-27-cancel-abandoned-checkouts: cancelled 0 unpaid orders/gm)).toHaveLength(1);
    expect(text.match(/run now\.$/gm)).toHaveLength(2);
    const listed = await run("node_modules/.bin/tsx", ["scripts/migrate.ts", "--list"], { env, timeout: 60_000 });
    expect(listed.stdout).toMatch(/^2026-11-27-cancel-abandoned-checkouts {2}done /m);
    const { connectDb } = await import("~/server/db.server");
    await (await connectDb()).connection.getClient().db(new URL(env.MONGODB_URI).pathname.slice(1)).dropDatabase();
  });
});
