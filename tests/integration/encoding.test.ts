import http from "node:http";
import { describe, expect, it } from "vitest";
import { APP_URL } from "../support/http";

/**
 * The encoding each kind of answer is sent in. Chromium lists "gzip, deflate, br, zstd": brotli (smaller) is
 * chosen whenever it is accepted, whatever its place in the list; gzip when only gzip is; nothing when neither.
 */
const CHROMIUM = "gzip, deflate, br, zstd";

function encodingOf(path: string, acceptEncoding: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${APP_URL}${path}`, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.headers["content-encoding"]));
    });
    req.on("error", reject);
  });
}

/** A built script the home page's form pages load (its path changes with each build). */
async function builtScript(): Promise<string> {
  const html = await (await fetch(`${APP_URL}/contact`)).text();
  const src = /<link[^>]+rel="modulepreload"[^>]+href="(\/build\/[^"]+\.js)"/.exec(html)?.[1];
  if (!src) throw new Error("/contact links no built script");
  return src;
}

describe("the encoding on the wire", () => {
  it("sends a built script in brotli when the browser accepts it, in whatever order it lists it", async () => {
    const script = await builtScript();
    expect(await encodingOf(script, CHROMIUM)).toBe("br");
    expect(await encodingOf(script, "br, gzip")).toBe("br");
    expect(await encodingOf(script, "gzip, deflate")).toBe("gzip");
    expect(await encodingOf(script, "gzip, br;q=0")).toBe("gzip");
    expect(await encodingOf(script, "gzip;q=0.5, br;q=0.2")).toBe("gzip");
    expect(await encodingOf(script, "identity")).toBeUndefined();
  });

  it("sends a kept public page (served from memory) and a rendered form page in brotli too", async () => {
    await encodingOf("/about", CHROMIUM); // the first visit renders it and keeps it
    expect(await encodingOf("/about", CHROMIUM)).toBe("br");
    expect(await encodingOf("/about", "gzip, deflate")).toBe("gzip");
    expect(await encodingOf("/contact", CHROMIUM)).toBe("br");
  });
});
