import { describe, expect, it } from "vitest";
import { CONTACT_MESSAGES } from "~/domain/contact";
import { ContactMessage, OutboxMessage } from "~/server/models/index.server";
import { action } from "~/routes/contact";
import { useTestDatabase } from "../support/db";

useTestDatabase();

function post(fields: Record<string, string>, address: string) {
  return new Request("http://localhost/contact", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "x-client-address": address, "Content-Type": "application/x-www-form-urlencoded" },
  });
}

const good = { name: "Sam", email: "sam@example.test", message: "Hello, I need a website." };
type Reply = { init?: { status?: number }; data?: { error?: Record<string, string[]> } };
const call = async (fields: Record<string, string>, address: string) =>
  (await action({ request: post(fields, address), params: {}, context: {} })) as unknown as Response & Reply;

describe("the contact action", () => {
  it("stores the message and queues one e-mail to the business, then redirects with the success message", async () => {
    const res = await call(good, "10.0.0.1");
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/contact");
    expect(await ContactMessage.countDocuments({ email: "sam@example.test" })).toBe(1);
    const mail = await OutboxMessage.findOne({ reply_to: "sam@example.test" }).lean();
    expect(mail?.subject).toBe("New enquiry from Sam");
  });

  it("answers bad input with 400 and the field errors, storing nothing", async () => {
    const res = await call({ ...good, email: "nope" }, "10.0.0.2");
    expect(res.init?.status).toBe(400);
    expect(res.data?.error?.email).toEqual(["Invalid email address"]);
    expect(await ContactMessage.countDocuments({ name: "Sam", email: "nope" })).toBe(0);
  });

  it("limits each address to 5 messages an hour, with a clear message", async () => {
    for (let i = 0; i < 5; i++) expect((await call(good, "10.0.0.3")).status).toBe(303);
    const sixth = await call(good, "10.0.0.3");
    expect(sixth.init?.status).toBe(429);
    expect(sixth.data?.error?.[""]).toEqual([CONTACT_MESSAGES.tooMany]);
    expect((await call(good, "10.0.0.4")).status).toBe(303);
  });

  it("refuses a filled honeypot without storing anything", async () => {
    const before = await ContactMessage.countDocuments();
    const res = await call({ ...good, fax_number: "x" }, "10.0.0.5");
    expect(res.init?.status).toBe(400);
    expect(await ContactMessage.countDocuments()).toBe(before);
  });
});
