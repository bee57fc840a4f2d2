import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageHero } from "~/components/PageHero";
import { standInsAllowed } from "~/server/env.server";
import { recentMail } from "~/server/mail/outbox.server";

export const meta: MetaFunction = () => [
  { title: "Mail outbox (development) | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

/** Development, tests and the local run (LOCAL_STANDINS) only: the last 50 e-mails the app queued, with their delivery state. */
export async function loader(_: LoaderFunctionArgs) {
  if (!standInsAllowed()) throw new Response("Not Found", { status: 404 });
  const messages = await recentMail(50);
  return {
    messages: messages.map((m) => ({
      id: String(m._id),
      to: m.to,
      subject: m.subject,
      text: m.text,
      status: m.status,
      attempts: m.attempts,
      createdAt: new Date(m.created_at as Date).toISOString(),
    })),
  };
}

export default function DevMail() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero
        title="Mail outbox"
        lead="Not part of a deployment: only in development and the local run. Without SMTP_URL, each message is also written to the mail folder (MAIL_DIR)."
      />
      <div className="wrap section">
        {messages.length === 0 ? (
          <p>No e-mails yet.</p>
        ) : (
          <table className="mail-list">
            <thead>
              <tr>
                <th scope="col">Queued</th>
                <th scope="col">To</th>
                <th scope="col">Subject and body</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr key={m.id}>
                  <td>{m.createdAt}</td>
                  <td>{m.to}</td>
                  <td>
                    <details>
                      <summary>{m.subject}</summary>
                      <pre>{m.text}</pre>
                    </details>
                  </td>
                  <td>
                    {m.status} ({m.attempts} attempts)
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </>
  );
}
