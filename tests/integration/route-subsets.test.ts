import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_PAGES } from "../../scripts/page-list.mjs";
import { routeSubsetHandler } from "../../scripts/route-subsets.mjs";

/**
 * The production server hands each request to Remix over only the routes its path can match
 * (scripts/route-subsets.mjs). Here the built app answers the same requests through Remix's own handler
 * over the whole build and through that one, side by side in this process: the answers are the same, byte
 * for byte but for what differs between any two renders (the form key drawn for each page).
 */

const BUILD = path.resolve("build/index.js");
const servers: ReturnType<ReturnType<typeof express>["listen"]>[] = [];
let whole = "";
let subsets = "";
let version = "";

beforeAll(async () => {
  if (!existsSync(BUILD)) throw new Error("no build/: run `npm run build` (npm test does) before this test");
  const build = await import(pathToFileURL(BUILD).href);
  version = build.assets.version;
  const options = { build, mode: "production", getLoadContext: () => ({ cspNonce: "fixed-nonce" }) };
  const serve = async (handler: express.RequestHandler) => {
    const app = express();
    app.all("*", handler);
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((done) => server.once("listening", done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  whole = await serve(createRequestHandler(options));
  subsets = await serve(routeSubsetHandler(options));
});

afterAll(() => servers.forEach((server) => server.close()));

/** An answer with what differs between two renders of the same page (each draws its own form key) blanked. */
async function answer(origin: string, pathname: string, init?: RequestInit) {
  const res = await fetch(origin + pathname, { redirect: "manual", ...init });
  const blank = (text: string) => text.replace(/[A-Za-z0-9_-]{22,}/g, "<random>");
  const body = blank(await res.text());
  const headers = [...res.headers]
    .filter(([name]) => !["date", "set-cookie", "content-length"].includes(name))
    .map(([name, value]) => [name, blank(value)]);
  return { status: res.status, headers, body };
}

describe("pages through the route subsets (scripts/route-subsets.mjs)", () => {
  const paths = [
    ...PUBLIC_PAGES,
    "/contact.data",
    "/_root.data",
    "/checkout.data?package=professional",
    "/showcase/no-such-business",
    "/admin",
    "/admin/orders/3f2a9c1e-7b2d-4c8e-9a6f-1d2e3f4a5b6c",
    "/dashboard",
    "/intake-form/3",
    "/intake-form/99",
    "/order-status",
    "/deeply/nested/no/such/page",
    "/CONTACT",
    "/contact/",
    "//contact",
    "/contact/%E0%A4%A",
    `/uploads${"/a".repeat(2000)}`,
  ];

  it.each(paths)("%s is answered as Remix answers it over every route", async (pathname) => {
    const [expected, got] = await Promise.all([answer(whole, pathname), answer(subsets, pathname)]);
    expect(got).toEqual(expected);
  });

  it("answers the route manifest of other pages (lazy route discovery) from every route", async () => {
    const query = `/__manifest?p=/about&p=/admin/coupons&p=/intake-form/7&version=${version}`;
    const [expected, got] = await Promise.all([answer(whole, query), answer(subsets, query)]);
    expect(got).toEqual(expected);
    expect(got.body).toContain("routes/admin.coupons");
  });

  it("answers a post as Remix does", async () => {
    const post = { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "x=1" };
    const [expected, got] = await Promise.all([answer(whole, "/contact", post), answer(subsets, "/contact", post)]);
    expect(got.status).toBe(expected.status);
  });
});
