import { constants } from "node:fs";
import { access, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { getEnv } from "../env.server";

/**
 * The domain of MAIL_FROM's address: the Message-ID of every message is made under it, so the id names the
 * domain that signs and sends the mail (SPF, DKIM, DMARC), as spam filters expect.
 */
export function sendingDomain(from = getEnv().MAIL_FROM): string {
  return /@([^\s>]+)>?\s*$/.exec(from)?.[1]?.toLowerCase() ?? "localhost";
}

export type OutgoingMail = {
  messageId: string;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  html: string;
};

export interface MailTransport {
  readonly kind: "smtp" | "folder";
  send(mail: OutgoingMail): Promise<void>;
  /** Throws unless mail can go out now: the SMTP server accepts a connection and the login (/readyz). */
  verify(): Promise<void>;
}

function toNodemailer(mail: OutgoingMail) {
  return {
    from: getEnv().MAIL_FROM,
    to: mail.to,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
  };
}

/** SMTP through nodemailer: production, and tests against Mailpit. */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    kind: "smtp",
    async send(mail) {
      await transporter.sendMail(toNodemailer(mail));
    },
    async verify() {
      await transporter.verify();
    },
  };
}

/** Development default: one readable .eml file per message in MAIL_DIR (listed at /dev/mail). */
export function folderTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "folder",
    async send(mail) {
      const info = await transporter.sendMail(toNodemailer(mail));
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const safeId = mail.messageId.replace(/[^a-zA-Z0-9-]/g, "").slice(0, 40);
      await writeFile(path.join(dir, `${stamp}-${safeId}.eml`), info.message as Buffer);
    },
    async verify() {
      await mkdir(dir, { recursive: true });
      await access(dir, constants.W_OK);
    },
  };
}

let transport: MailTransport | undefined;

/** SMTP when SMTP_URL is set; otherwise the mail folder (refused in production by env validation). */
export function getMailTransport(): MailTransport {
  if (!transport) {
    const env = getEnv();
    transport = env.SMTP_URL ? smtpTransport(env.SMTP_URL) : folderTransport(path.resolve(env.MAIL_DIR));
  }
  return transport;
}
