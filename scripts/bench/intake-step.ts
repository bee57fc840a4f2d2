// The intake step POST, timed at 1,000 and 10,000 stored submissions (issue 10).
// Not a test: it prints figures. Needs the test services running:
//
//   bash scripts/services.sh start test mongo
//   export $(bash scripts/services.sh env test | grep MONGODB_URI)
//   npx tsx scripts/bench/intake-step.ts [samples per size, default 30]
//   bash scripts/services.sh stop test
//
// It works in a database of its own (dropped at the end): one paid order with an
// intake session, then other orders' submissions inserted up to each size, then
// step 1 posted through the route's own action (session, parse, save, progress).
import { randomBytes, randomUUID } from "node:crypto";
import { action } from "~/routes/intake-form_.$step";
import { connectDb, disconnectDb } from "~/server/db.server";
import { fulfilOrder } from "~/server/fulfilment.server";
import { ensureIndexes, IntakeSubmission, Order } from "~/server/models/index.server";
import { exchangeToken } from "~/server/tokens.server";

const samples = Number(process.argv[2] ?? 30);
const sizes = [1_000, 10_000];
const base = process.env.MONGODB_URI;
if (!base) throw new Error("Set MONGODB_URI (scripts/services.sh env test)");
process.env.MONGODB_URI = `${base.replace(/\/[^/]*$/, "")}/bench_${randomBytes(4).toString("hex")}`;

const conn = await connectDb(process.env.MONGODB_URI);
await ensureIndexes();

const order = await Order.create({ email: "bench@example.test", amount_total: 30_000 });
const { token } = await fulfilOrder({ orderId: order._id, sessionId: `cs_bench_${order._id}`, amountPaid: 30_000 });
// The e-mailed link, opened: its answer sets the intake cookie.
const opened = await exchangeToken(new Request(`http://localhost/intake-form?token=${token}`), token, "intake");
const cookie = opened.headers.get("Set-Cookie")!.split(";")[0];

/** A typical draft: steps 1-4 filled in (about 3 KB, like a real one). */
const filler = {
  status: "draft",
  furthest_step: 5,
  business_name: "Other Business Pty Ltd",
  contact_email: "owner@other.example",
  contact_phone: "0400 000 000",
  business_type: "trades",
  business_description: "We have served the Northern Rivers for twenty years. ".repeat(8),
  website_purpose: "lead_generation",
  main_cta: "Call us today",
  services_list: Array.from({ length: 6 }, (_, i) => ({
    name: `Service ${i}`,
    description: "What this service includes and who it is for. ".repeat(3),
    prominent: i < 2,
  })),
  brand_colors: ["#123456", "#abcdef"],
  pages_needed: ["Home", "About", "Services", "Contact"],
  photo_metadata: Array.from({ length: 3 }, (_, i) => ({
    url: `/uploads/photos/x/${i}.jpg`,
    key: `photos/x/${i}.jpg`,
    altText: "Our team at work on a job site",
    placement: "gallery",
  })),
};

/** Other customers' drafts, inserted raw, keyed the way the app keys them (by order id). */
async function fillTo(count: number) {
  let have = await IntakeSubmission.estimatedDocumentCount();
  while (have < count) {
    const batch = Array.from({ length: Math.min(1000, count - have) }, () => {
      const id = randomUUID();
      return { ...filler, _id: id, order_id: id, created_at: new Date(), updated_at: new Date() };
    });
    await IntakeSubmission.collection.insertMany(batch as never[]);
    have += batch.length;
  }
}

const fields = {
  businessName: "Bench Plumbing",
  contactEmail: "jo@bench.example",
  contactPhone: "0400 000 000",
  businessType: "trades",
  businessDescription: "Plumbing for the Northern Rivers, benchmarked.",
  intent: "next",
};

async function postStep(): Promise<number> {
  const request = new Request("http://localhost/intake-form/1", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie },
  });
  const started = performance.now();
  let response: Response;
  try {
    response = (await action({ request, params: { step: "1" }, context: {} })) as Response;
  } catch (thrown) {
    response = thrown as Response;
  }
  const ms = performance.now() - started;
  if (response.status !== 303 || response.headers.get("Location") !== "/intake-form/2")
    throw new Error(`unexpected answer ${response.status}`);
  return ms;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

console.log(`intake step POST (step 1, intent next), ${samples} sequential samples per size`);
for (const size of sizes) {
  await fillTo(size);
  await postStep(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await postStep());
  times.sort((a, b) => a - b);
  console.log(
    `${String(size).padStart(6)} submissions: median ${quantile(times, 0.5).toFixed(0)} ms, p99 ${quantile(times, 0.99).toFixed(0)} ms`,
  );
}

await conn.connection.dropDatabase();
await disconnectDb();
