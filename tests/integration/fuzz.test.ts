import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Session } from "~/server/models/index.server";
import { ADMIN_SESSION_IDLE_MS, sessionStorage } from "~/server/session.server";
import { paidOrder } from "../support/app-data";
import { signedInUser } from "../support/auth";
import {
  FUZZ_GET_TARGETS,
  FUZZ_INTENTS,
  FUZZ_ISSUE_VALUES,
  FUZZ_KNOWN_CASES,
  FUZZ_TARGETS,
  type FuzzNeed,
  type FuzzTarget,
} from "../support/fuzz-targets";
import { gifBomb } from "../../scripts/bench/worst-images.mjs";
import {
  APP_URL,
  appIsUp,
  appResidentBytes,
  intakeCookie,
  loopbackAddress,
  rawRequest,
  useRunningAppDatabase,
} from "../support/http";
import { uniqueAddress } from "../support/mailpit";

/**
 * Seeded, bounded fuzzing of every form against the running app: generated
 * malformed bodies (hostile field names, wrong content types, broken and
 * oversized multipart, forged cookies) must never get a 5xx, the process must
 * keep answering, and its memory must stay bounded. FUZZ_SEED and FUZZ_RUNS
 * replay or widen a run; the seed is printed either way.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
// V8 grows its heap lazily, so a healthy run can add ~130 MB; holding one 100-million-slot array
// (800 MB) or 40 photos of 8 MB (320 MB) would not fit.
const MAX_RSS_GROWTH = 256 * 1024 * 1024;

const connect = useRunningAppDatabase();
const from = loopbackAddress(); // its own rate-limit buckets: the fuzz never spends another test's limits
/** The cookie each kind of visitor brings, made the way the app makes it. */
const cookies: Record<FuzzNeed, string> = { intake: "", user: "", unconfirmed: "", admin: "", "signed-out admin": "" };
beforeAll(async () => {
  await connect();
  cookies.intake = await intakeCookie((await paidOrder(uniqueAddress("fuzz"))).token);
  cookies.user = (await signedInUser()).cookie;
  cookies.unconfirmed = (await signedInUser({ confirmed: false })).cookie;
  cookies.admin = (await signedInUser({ admin: true })).cookie;
  cookies["signed-out admin"] = (await signedInUser({ admin: true })).cookie;
  const idleId = (await sessionStorage().getSession(cookies["signed-out admin"])).id;
  await Session.updateOne(
    { _id: idleId },
    { $set: { last_seen_at: new Date(Date.now() - ADMIN_SESSION_IDLE_MS - 60_000) } },
  );
});

const hostileName = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc
    .tuple(fc.constantFrom("a", "servicesList", "photoMetadata", "addOns"), fc.nat({ max: 2 ** 31 }))
    .map(([n, i]) => `${n}[${i}]`),
  fc.integer({ min: 5, max: 3000 }).map((d) => `a${"[0]".repeat(d)}`),
  fc.integer({ min: 5, max: 3000 }).map((d) => `a${".b".repeat(d)}`),
  fc.constantFrom(
    "__proto__",
    "constructor.prototype",
    "a.__proto__.x",
    "a[]",
    "[0]",
    "a..b",
    "a[-1]",
    "a[1e3]",
    "",
    "%00",
    "a[0",
    "toString",
    "x".repeat(500),
  ),
  fc.string({ unit: "binary", maxLength: 16 }),
);
const value = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...FUZZ_INTENTS) },
  { weight: 1, arbitrary: fc.constantFrom(...FUZZ_ISSUE_VALUES) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 120 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "on",
      "yes",
      "true",
      "-1",
      "1e309",
      "NaN",
      "https://evil.example/x.png",
      "javascript:alert(1)",
      "<script>",
      "x".repeat(70_000),
    ),
  },
);
const entries = (target: FuzzTarget) => {
  const name = target.fields.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...target.fields) }, { weight: 2, arbitrary: hostileName })
    : hostileName;
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(fc.tuple(name, value), { maxLength: 24 }) },
    { weight: 1, arbitrary: fc.constant(Array.from({ length: 700 }, (_, i) => [`f${i}`, "1"] as [string, string])) },
  );
};

/** A 64-megapixel GIF of 45 KB, and a small one of 30 frames. */
const BOMB = new Uint8Array(gifBomb(8000, 8000));
const FRAMES = new Uint8Array(gifBomb(64, 64, 30));

type Body = { kind: string; contentType?: string; body?: Uint8Array };
const enc = (s: string) => new TextEncoder().encode(s);

function multipart(
  pairs: [string, string][],
  files: { name: string; bytes: Uint8Array }[],
  boundary: string,
): Uint8Array {
  const parts: (string | Uint8Array)[] = [];
  const quote = (s: string) => s.replace(/["\r\n]/g, "_");
  for (const [n, v] of pairs)
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(n)}"\r\n\r\n${v}\r\n`);
  for (const f of files) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(f.name)}"; filename="f.png"\r\nContent-Type: image/png\r\n\r\n`,
      f.bytes,
      "\r\n",
    );
  }
  parts.push(`--${boundary}--\r\n`);
  return Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));
}

const body = (target: FuzzTarget): fc.Arbitrary<Body> => {
  const files = fc.array(
    fc.record({
      name: fc.constantFrom("logo", "photos", "photos", "other", "intent"),
      bytes: fc.oneof(
        { weight: 8, arbitrary: fc.uint8Array({ maxLength: 4096 }) },
        // Images that claim more pixels than any upload may have (refused from the header), or many frames.
        { weight: 1, arbitrary: fc.constantFrom(BOMB, FRAMES) },
      ),
    }),
    { maxLength: target.multipart ? 16 : 2 },
  );
  return fc.oneof(
    {
      weight: 5,
      arbitrary: entries(target).map((e): Body => ({
        kind: "urlencoded",
        contentType: "application/x-www-form-urlencoded",
        body: enc(new URLSearchParams(e).toString()),
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .string({ maxLength: 300 })
        .map((s): Body => ({ kind: "raw urlencoded", contentType: "application/x-www-form-urlencoded", body: enc(s) })),
    },
    {
      weight: 4,
      arbitrary: fc.tuple(entries(target), files).map(([e, f]): Body => ({
        kind: "multipart",
        contentType: "multipart/form-data; boundary=fz",
        body: multipart(e, f, "fz"),
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(entries(target), files, fc.double({ min: 0, max: 1, noNaN: true }))
        .map(([e, f, cut]): Body => {
          const whole = multipart(e, f, "fz");
          return {
            kind: "truncated multipart",
            contentType: "multipart/form-data; boundary=fz",
            body: whole.slice(0, Math.floor(whole.length * cut)),
          };
        }),
    },
    {
      weight: 1,
      arbitrary: entries(target).map((e): Body => ({
        kind: "json",
        contentType: "application/json",
        body: enc(JSON.stringify(Object.fromEntries(e))),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 200 })
        .map((s): Body => ({ kind: "text/plain", contentType: "text/plain", body: enc(s) })),
    },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: "no body" }) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.string({ maxLength: 60 }), fc.uint8Array({ maxLength: 500 })).map(([ct, b]): Body => ({
        kind: "odd content type",
        contentType: ct.replace(/[^\t\x20-\x7e]/g, ""),
        body: b,
      })),
    },
  );
};

const cookieFor = (target: FuzzTarget) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant(target.needs ?? "") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "__intake=forged.sig",
        "__session=abc.!!!",
        "__flash=%E0%A4%A",
        "__checkout=W10%3D.x",
        "__intake=",
      ),
    },
  );

const scenario = fc
  .constantFrom(...FUZZ_TARGETS)
  .chain((target) => fc.record({ target: fc.constant(target), body: body(target), cookie: cookieFor(target) }));

describe("fuzzing every form with malformed bodies", () => {
  it(
    `answers ${RUNS} generated posts (seed ${SEED}) without a 5xx, stays up, and keeps its memory bounded`,
    { timeout: 240_000 },
    async () => {
      console.log(`fuzz: seed ${SEED}, ${RUNS} runs, ${FUZZ_TARGETS.length} targets, from ${from} to ${APP_URL}`);
      const before = await appResidentBytes();
      const statuses = new Map<number, number>();
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(scenario, async ({ target, body: b, cookie }) => {
          const headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin", Origin: APP_URL };
          if (target.path.startsWith("/webhooks/")) {
            delete headers.Origin;
            delete headers["Sec-Fetch-Site"];
            headers["Stripe-Signature"] = "t=1,v1=forged";
          }
          if (b.contentType !== undefined) headers["Content-Type"] = b.contentType;
          if (cookie) headers.Cookie = cookie in cookies ? cookies[cookie as FuzzNeed] : cookie;
          const res = await rawRequest({ method: "POST", path: target.path, body: b.body, headers, from });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (++runs % 200 === 0) expect(await appIsUp(), `after ${runs} posts`).toBe(true);
          expect(res.status, `${target.path} ${b.kind}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      console.log(`fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
      expect(await appIsUp()).toBe(true);
      const after = await appResidentBytes();
      if (before !== null && after !== null) {
        console.log(`fuzz: app RSS ${Math.round(before / 1048576)} MB -> ${Math.round(after / 1048576)} MB`);
        expect(after - before).toBeLessThan(MAX_RSS_GROWTH);
      } else console.log("fuzz: the app's memory could not be read from /proc; not checked");
    },
  );
});

describe("the known hostile requests", () => {
  it.each(FUZZ_KNOWN_CASES)("$method $path ($body) as $needs", async ({ method, path, needs, body: b, status }) => {
    const headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin", Origin: APP_URL };
    if (b !== undefined) headers["Content-Type"] = "application/x-www-form-urlencoded";
    // A fresh session of its kind: the generated posts above may have signed the shared one out.
    if (needs === "user" || needs === "unconfirmed")
      headers.Cookie = (await signedInUser({ confirmed: needs === "user" })).cookie;
    else if (needs) headers.Cookie = cookies[needs];
    const res = await rawRequest({ method, path, body: b, headers, from });
    expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
    if (status !== undefined) expect(res.status, res.text.slice(0, 300)).toBe(status);
  });
});

describe("fuzzing every page's query string", () => {
  const query = fc.constantFrom(...FUZZ_GET_TARGETS).chain((target) =>
    fc.record({
      target: fc.constant(target),
      pairs: fc.array(
        fc.tuple(
          fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...target.params) }, { weight: 1, arbitrary: hostileName }),
          fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...FUZZ_ISSUE_VALUES) },
            { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
            { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
          ),
        ),
        { minLength: 1, maxLength: 4 },
      ),
      // Raw: a value sent exactly as the issue's requests sent it, percent-escapes and all.
      raw: fc.boolean(),
      cookie: fc.constantFrom<FuzzNeed | "">("", "intake", "user", "unconfirmed", "admin"),
    }),
  );
  /** Escapes only what an HTTP request line cannot carry (as the issue's requests sent `%E3%80%80` unescaped). */
  const escapeRaw = (s: string) =>
    s.replace(/[^\x21-\x7e]/gu, (c) =>
      [...Buffer.from(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
    );
  const GET_RUNS = Math.max(50, Math.round(RUNS / 4));

  it(
    `answers ${GET_RUNS} generated GETs (seed ${SEED}) with hostile query values without a 5xx`,
    { timeout: 120_000 },
    async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(query, async ({ target, pairs, raw, cookie }) => {
          const search = raw
            ? pairs
                .map(([k, v]) => `${escapeRaw(k).replace(/[&=#]/g, "_")}=${escapeRaw(v).replace(/[&#]/g, "_")}`)
                .join("&")
            : new URLSearchParams(pairs).toString();
          const path = `${target.path}?${search}`;
          const headers: Record<string, string> = cookie ? { Cookie: cookies[cookie] } : {};
          const res = await rawRequest({ path, headers, from });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status, `GET ${path} as ${cookie || "visitor"}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 300 && res.status < 400) {
            // A redirect stays on this site: never to another host, whatever the query named.
            const location = String(res.headers.location ?? "");
            expect(location, path).toMatch(
              /^\/(?![/\\])|^https?:\/\/(127\.0\.0\.1|localhost)[:/]|^https:\/\/checkout\.stripe\.com\//,
            );
          }
        }),
        { seed: SEED, numRuns: GET_RUNS, endOnFailure: true },
      );
      console.log(`fuzz GET: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
      expect(await appIsUp()).toBe(true);
    },
  );
});
