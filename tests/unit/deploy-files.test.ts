import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What the deployment files promise that no running test here can see: docker compose and the Dockerfile
// cannot be run on this machine (no container registry answers; docs/deploy.md, "docker compose").
const read = (file: string) => readFileSync(path.resolve(__dirname, "../..", file), "utf8");

describe("docker compose and the Dockerfile, for a laptop only", () => {
  const compose = read("docker-compose.yml");

  it("publishes every port on 127.0.0.1 only", () => {
    const published = [...compose.matchAll(/^\s+- "([^"]+)"$/gm)].map((m) => m[1]).filter((p) => /:\d+$/.test(p));
    expect(published.length).toBeGreaterThanOrEqual(7);
    for (const port of published) expect(port, port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  it("pins every image, gives MongoDB a user and password and MinIO its credentials from the environment", () => {
    const images = [...compose.matchAll(/^\s+image: (\S+)$/gm)].map((m) => m[1]);
    expect(images.length).toBe(5);
    for (const image of images) expect(image, image).toMatch(/:(v?\d+\.\d+\.\d+|RELEASE\.[\dT-]+Z(-cpuv1)?)$/);
    expect(compose).toContain("MONGO_INITDB_ROOT_PASSWORD: ${MONGO_PASSWORD:?");
    expect(compose).toContain("MINIO_ROOT_PASSWORD: ${MINIO_ROOT_PASSWORD:?");
    expect(compose).not.toMatch(/minioadmin/);
    expect(compose).not.toMatch(/^\s+LOCAL_STANDINS:/m);
    expect(compose).toMatch(/^\s+build: \.$/m);
  });

  it("builds the app in two stages on Node 24 and runs it as an unprivileged user", () => {
    const dockerfile = read("Dockerfile");
    const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(stages).toEqual(["docker.io/library/node:24-bookworm-slim", "docker.io/library/node:24-bookworm-slim"]);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev/m);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it("asks for Node 24 wherever a version is named", () => {
    expect(JSON.parse(read("package.json")).engines.node).toBe(">=24");
    expect(read("scripts/lib.sh")).toMatch(/^NODE_MAJOR=24$/m);
  });
});
