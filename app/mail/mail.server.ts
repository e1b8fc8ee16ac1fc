import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";

export type Mail = { to: string; subject: string; text: string; html: string };

const FROM = process.env.MAIL_FROM ?? "Assay <assay@localhost>";

/** Where mails go without SMTP_URL: one .eml per mail, so the offline demo can follow links. */
export const outboxDir = () => process.env.OUTBOX_DIR ?? path.resolve(".data/outbox");

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * Sends by SMTP when SMTP_URL is set, else writes the mail to the outbox. Never logs the mail: its
 * body holds a single-use link that is as good as a password.
 */
export async function sendMail(mail: Mail): Promise<void> {
  const url = process.env.SMTP_URL;
  if (url) {
    await nodemailer.createTransport(url).sendMail({ from: FROM, ...mail });
    return;
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const info = await transport.sendMail({ from: FROM, ...mail });
  await fs.mkdir(outboxDir(), { recursive: true });
  const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`;
  await fs.writeFile(path.join(outboxDir(), name), info.message as Buffer, { mode: 0o600 });
}

export const mailsGoToOutbox = () => !process.env.SMTP_URL;

function linkMail(to: string, subject: string, intro: string, link: string, validity: string): Mail {
  return {
    to,
    subject,
    text: `${intro}\n\n${link}\n\nThe link works once, ${validity}. If you did not expect this mail, ignore it.\n`,
    html:
      `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
      `<p>The link works once, ${escapeHtml(validity)}. If you did not expect this mail, ignore it.</p>`,
  };
}

export const invitationMail = (to: string, link: string) =>
  linkMail(
    to,
    "You are invited to Assay",
    "You have been invited to Assay. Open this link to choose your name and password:",
    link,
    "for 7 days",
  );

export const resetMail = (to: string, link: string) =>
  linkMail(
    to,
    "Reset your Assay password",
    "Someone asked to reset the password of your Assay account. Open this link to choose a new one:",
    link,
    "for one hour",
  );

/** This app's address in links sent by mail: PUBLIC_URL when set, else the request's own origin. */
export const linkOrigin = (request: Request) =>
  process.env.PUBLIC_URL?.replace(/\/$/, "") ?? new URL(request.url).origin;

/**
 * Mails an invitation link. Returns the link when mails go to the outbox (no SMTP_URL), so the admin's
 * page can show it once and an offline demo can follow it; null when it went out by SMTP.
 */
export async function mailInvitation(request: Request, email: string, token: string) {
  const link = `${linkOrigin(request)}/invite/${token}`;
  await sendMail(invitationMail(email, link));
  return mailsGoToOutbox() ? link : null;
}
