import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { holdPort, privatePort, startBinary, stopProcess, waitForPort } from "./processes";

/** Reads what arrived at the test SMTP server (Mailpit's REST API). */
export type MailpitSummary = { ID: string; MessageID: string; Subject: string; To: { Address: string }[] };

const api = () => process.env.MAILPIT_API_URL ?? "http://127.0.0.1:23025";

export async function messagesTo(address: string): Promise<MailpitSummary[]> {
  const res = await fetch(`${api()}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}&limit=100`);
  if (!res.ok) throw new Error(`Mailpit search failed: ${res.status}`);
  const body = (await res.json()) as { messages: MailpitSummary[] };
  return body.messages;
}

export async function messageText(
  id: string,
): Promise<{ Text: string; HTML: string; Subject: string; ReplyTo: { Address: string }[] }> {
  const res = await fetch(`${api()}/api/v1/message/${id}`);
  if (!res.ok) throw new Error(`Mailpit message failed: ${res.status}`);
  return res.json();
}

/** Polls until `count` messages to `address` have arrived (or times out). */
export async function waitForMessages(address: string, count = 1, timeoutMs = 15_000): Promise<MailpitSummary[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await messagesTo(address);
    if (found.length >= count || Date.now() > until) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function uniqueAddress(label: string) {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/**
 * A Mailpit of the test's own, stopped until `start()`, for tests that take
 * the SMTP server away during a run. `stop()` in afterAll.
 */
export function privateMailpit(basePort: number) {
  const smtp = privatePort(basePort);
  const http = holdPort(smtp + 1000);
  let dir = "";
  let server: ChildProcess | undefined;
  return {
    smtpUrl: `smtp://127.0.0.1:${smtp}`,
    async start() {
      dir ||= await mkdtemp(path.join(tmpdir(), "mailpit-"));
      server = startBinary("mailpit", [
        "--smtp",
        `127.0.0.1:${smtp}`,
        "--listen",
        `127.0.0.1:${http}`,
        "--database",
        path.join(dir, "mail.db"),
        "--smtp-auth-accept-any",
        "--smtp-auth-allow-insecure",
        "--disable-version-check",
      ]);
      await waitForPort(smtp);
      await waitForPort(http);
    },
    async stop() {
      if (server) await stopProcess(server);
      if (dir) await rm(dir, { recursive: true, force: true });
    },
    /** Every message that arrived (up to 500), newest first. */
    async messages(): Promise<(MailpitSummary & { ReplyTo: { Address: string }[] })[]> {
      const res = await fetch(`http://127.0.0.1:${http}/api/v1/messages?limit=500`);
      return ((await res.json()) as { messages: (MailpitSummary & { ReplyTo: { Address: string }[] })[] }).messages;
    },
    /** The subjects of what arrived for an address. */
    async subjectsTo(address: string): Promise<string[]> {
      const res = await fetch(`http://127.0.0.1:${http}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
      return ((await res.json()) as { messages: { Subject: string }[] }).messages.map((m) => m.Subject);
    },
  };
}
