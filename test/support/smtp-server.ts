/**
 * A real SMTP server for tests (the smtp-server package), on a free local port: it takes mail
 * for any recipient, optionally only after AUTH with one user, and keeps each message it
 * received, parsed just enough for the tests (envelope, headers, text body).
 */
import { SMTPServer } from 'smtp-server';
import { freePort } from './free-port.ts';

export interface ReceivedMail {
  readonly envelopeFrom: string;
  readonly envelopeTo: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The user that authenticated, if any. */
  readonly user: string | undefined;
}

export interface TestSmtpServer {
  readonly url: string;
  readonly received: ReceivedMail[];
  /** Resolves with the next message to `to` (or one already received and not yet taken). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Quoted-printable and 7bit bodies, as nodemailer writes short text messages. */
function parse(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let text = raw.slice(split + 4);
  if (headers['content-transfer-encoding']?.toLowerCase() === 'quoted-printable') {
    text = Buffer.from(text.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
  }
  return { headers, text: text.replace(/\r\n/g, '\n') };
}

export async function startSmtpServer(options: { readonly user?: { readonly name: string; readonly password: string } } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: options.user === undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.user && auth.username === options.user.name && auth.password === options.user.password) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const { headers, text } = parse(Buffer.concat(chunks).toString('utf8'));
        const mail: ReceivedMail = {
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          headers,
          text,
          user: typeof session.user === 'string' ? session.user : undefined,
        };
        received.push(mail);
        const i = waiting.findIndex((w) => mail.envelopeTo.includes(w.to));
        if (i >= 0) {
          taken.add(mail);
          waiting.splice(i, 1)[0]!.resolve(mail);
        }
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const auth = options.user ? `${encodeURIComponent(options.user.name)}:${encodeURIComponent(options.user.password)}@` : '';
  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    received,
    next(to, timeoutMs = 5_000) {
      const ready = received.find((m) => !taken.has(m) && m.envelopeTo.includes(to));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiting.push({ to, resolve: (mail) => (clearTimeout(timer), resolve(mail)) });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
