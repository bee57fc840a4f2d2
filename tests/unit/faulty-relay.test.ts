import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelay, type Relay } from "../support/faulty-relay";

/**
 * The browser tests' faulty relay (tests/support/faulty-relay.ts) itself: on a busy machine a test may restore
 * the link while the app is still acting on the faulty request. That answer must then arrive, and the link
 * stay good: a stalled answer held after restore() was held for ever, and a drop after it took the link down
 * again (the red 'two quick Removes' and 'dropped upload' runs beside four busy processes).
 */
let app: Server;
let target: string;
const relays: Relay[] = [];
const newRelay = async () => {
  const relay = await startRelay(target);
  relays.push(relay);
  return relay;
};

beforeAll(async () => {
  // An app that takes 300 ms to answer /slow.
  app = createServer((req, res) => {
    const answer = () => res.end(`answered ${req.url}`);
    if (req.url === "/slow") setTimeout(answer, 300);
    else answer();
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  target = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(relays.map((r) => r.close()));
  await new Promise((resolve) => app.close(resolve));
});

describe("the faulty relay", () => {
  it("holds a stalled answer until restore()", async () => {
    const relay = await newRelay();
    relay.fail("stall", "/fast", { method: "GET" });
    let answered = false;
    const answer = fetch(`${relay.url}/fast`).then(async (r) => {
      answered = true;
      return r.text();
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    relay.restore();
    expect(await answer).toBe("answered /fast");
  });

  it("delivers a stalled answer that comes after restore()", async () => {
    const relay = await newRelay();
    const seen = relay.fail("stall", "/slow", { method: "GET" });
    const answer = fetch(`${relay.url}/slow`).then((r) => r.text());
    await expect.poll(() => seen.reached).toBe(1);
    relay.restore(); // the app is still acting on it
    expect(await answer).toBe("answered /slow");
  });

  it("keeps the link up when a dropped request's answer comes after restore()", async () => {
    const relay = await newRelay();
    const seen = relay.fail("drop", "/slow", { method: "GET" });
    const answer = fetch(`${relay.url}/slow`).then((r) => r.text());
    await expect.poll(() => seen.reached).toBe(1);
    relay.restore();
    expect(await answer).toBe("answered /slow");
    expect(await (await fetch(`${relay.url}/fast`)).text()).toBe("answered /fast");
  });
});
