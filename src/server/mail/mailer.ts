import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { env } from '../env.ts';
import { log } from '../log.ts';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /** Shown inline where the HTML says `src="cid:…"`. */
  cid?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** Extra headers, such as List-Unsubscribe on a notice a shopper asked for. */
  headers?: Record<string, string>;
}

type Transport = { sendMail(message: Record<string, unknown>): Promise<unknown> };
let smtp: Promise<Transport> | undefined;
let outboxTransport: Promise<Transport> | undefined;

function smtpTransport(url: string): Promise<Transport> {
  // Short timeouts: the outbox worker's lease (MAIL_LEASE_SECONDS) must outlast a hung server.
  smtp ??= import('nodemailer').then(
    ({ default: nodemailer }) =>
      nodemailer.createTransport({ url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as Parameters<typeof nodemailer.createTransport>[0]) as unknown as Transport,
  );
  return smtp;
}

/** nodemailer's stream transport builds the real RFC 822 message (encodings, headers) without sending it. */
function streamTransport(): Promise<Transport> {
  outboxTransport ??= import('nodemailer').then(
    ({ default: nodemailer }) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }) as unknown as Transport,
  );
  return outboxTransport;
}

export function outboxDir(): string {
  return path.resolve(env().DATA_DIR, 'outbox');
}

/**
 * Sends one mail now: over SMTP when SMTP_URL is set, otherwise into DATA_DIR/outbox/ as an .eml file
 * and a log line, so a shop without a mail server and the tests can read what would have been sent.
 * Only the outbox worker calls this; features enqueue (outbox.ts).
 */
export async function sendMail(message: MailMessage): Promise<void> {
  const config = env();
  const mail = {
    from: config.MAIL_FROM,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    ...(message.attachments ? { attachments: message.attachments } : {}),
    ...(message.headers ? { headers: message.headers } : {}),
  };
  if (config.SMTP_URL) {
    await (await smtpTransport(config.SMTP_URL)).sendMail(mail);
    log.info('mail sent', { subject: message.subject });
    return;
  }
  const built = (await (await streamTransport()).sendMail(mail)) as { message: Buffer };
  const dir = outboxDir();
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
  await writeFile(file, built.message, { mode: 0o600 });
  log.info('mail written to outbox', { file, subject: message.subject });
}
