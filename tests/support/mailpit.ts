/** Reads what arrived at the test SMTP server (Mailpit's REST API). */
export type MailpitSummary = { ID: string; MessageID: string; Subject: string; To: { Address: string }[] };

const api = () => process.env.MAILPIT_API_URL ?? "http://127.0.0.1:38025";

export async function messagesTo(address: string): Promise<MailpitSummary[]> {
  const res = await fetch(`${api()}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}&limit=100`);
  if (!res.ok) throw new Error(`Mailpit search failed: ${res.status}`);
  const body = (await res.json()) as { messages: MailpitSummary[] };
  return body.messages;
}

export async function messageText(id: string): Promise<{ Text: string; HTML: string; Subject: string; ReplyTo: { Address: string }[] }> {
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
