import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/server/env.server";
import { takeServedAddress } from "../../scripts/served-at";

describe("the address npm run seed prints its links at", () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "served-at-")), "app-url");
  writeFileSync(file, "http://localhost:4100\n");

  it("is the one npm start wrote down when nothing says otherwise", () => {
    const env: Record<string, string | undefined> = {};
    takeServedAddress(env, file);
    expect(parseEnv(env).APP_URL).toBe("http://localhost:4100");
  });

  it("follows APP_URL or PORT when they are set, and is port 3000 with nothing at all", () => {
    const withPort: Record<string, string | undefined> = { PORT: "3200" };
    takeServedAddress(withPort, file);
    expect(parseEnv(withPort).APP_URL).toBe("http://localhost:3200");
    const withUrl: Record<string, string | undefined> = { APP_URL: "http://127.0.0.1:3400" };
    takeServedAddress(withUrl, file);
    expect(parseEnv(withUrl).APP_URL).toBe("http://127.0.0.1:3400");
    const nothing: Record<string, string | undefined> = {};
    takeServedAddress(nothing, path.join(path.dirname(file), "missing"));
    expect(parseEnv(nothing).APP_URL).toBe("http://localhost:3000");
  });
});
