import { z } from 'zod';

/**
 * The shop's configuration, read from the process environment once and validated at start.
 * Erasable TypeScript only: the Node server (runtime/main.ts) and the scripts import this file
 * directly with Node's type stripping, and the Astro bundle imports it through Vite.
 */

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const port = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a whole number')
  .min(1, 'must be between 1 and 65535')
  .max(65535, 'must be between 1 and 65535');

const milliseconds = z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(1000).max(3_600_000);

const databaseUrl = z
  .string()
  .trim()
  .refine(
    (value) => value === 'memory://' || /^postgres(ql)?:\/\/[^\s]+$/.test(value),
    'must be unset (embedded database in DATA_DIR), memory:// or a postgres:// URL',
  )
  .optional();

const envSchema = z.object({
  PORT: port.default(4321),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATABASE_URL: databaseUrl,
  DATA_DIR: z.string().trim().min(1).default('./data'),
  PUBLIC_SITE_URL: z.url({ error: 'must be an absolute URL such as https://shop.example.com' }).default('http://localhost:4321'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  SEED_DEMO: booleanFlag.default(true),
  KEEP_ALIVE_TIMEOUT_MS: milliseconds.default(65_000),
  HEADERS_TIMEOUT_MS: milliseconds.default(66_000),
  REQUEST_TIMEOUT_MS: milliseconds.default(120_000),
  SHUTDOWN_TIMEOUT_MS: milliseconds.default(15_000),
  /**
   * On SIGTERM, how long /readyz says "draining" while the server still serves, so a load balancer stops
   * sending traffic before connections close; 0 (the default, one machine) closes at once.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0).max(600_000).default(0),
  /** Turns GET /metrics on (Prometheus text), answered only with `Authorization: Bearer <this>`. */
  METRICS_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  TRUST_PROXY: booleanFlag.default(false),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  // The embedded database on a worker thread of its own, beside the one that renders (decision 156).
  PGLITE_THREAD: booleanFlag.default(true),
  /** With DATABASE_URL=memory://: a PGlite dump the database starts from (the test suites' seeded shop). */
  DATABASE_SNAPSHOT: z.string().trim().min(1).optional(),
  SMTP_URL: z.string().trim().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().trim().min(3).default('ร้านยิ้มละไม <no-reply@yimlamai.local>'),
  /** Comma-separated emails that act as staff (admin scope) for orders; see docs/decisions/061. */
  SHOP_ADMIN_EMAILS: z
    .string()
    .trim()
    .refine(
      (value) => value.split(',').every((part) => part.trim() === '' || /^[^\s@,]+@[^\s@,]+$/.test(part.trim())),
      'must be a comma-separated list of emails',
    )
    .default(''),
  /** Sign-ups from one address per hour (a shop whose shoppers share one address, at a fair, may need more). */
  REGISTER_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Mail outbox (docs/decisions/143): how often each instance looks for due mails; 0 turns its worker off. */
  MAIL_POLL_SECONDS: z.coerce.number().min(0).max(3_600).default(5),
  /** Tries before a mail is marked failed (the back office and `npm run shop -- mail-failed` show it). */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** First retry after this many seconds, doubling each time (at most an hour). */
  MAIL_RETRY_BASE_SECONDS: z.coerce.number().min(0).max(3_600).default(30),
  /** How long a claimed mail stays with the instance sending it before another may try it. */
  MAIL_LEASE_SECONDS: z.coerce.number().min(1).max(3_600).default(120),

  /**
   * Where uploads live (issue 10): unset = DATA_DIR/uploads; `s3://bucket?endpoint=…&region=…` = S3-compatible
   * object storage, keys from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (docs/design.md section 11).
   */
  STORAGE_URL: z
    .string()
    .trim()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\?.*)?$/, 'must be unset (DATA_DIR/uploads) or s3://bucket?endpoint=https://…&region=…')
    .optional(),
  /** How often the server expires unpaid orders past their time; 0 turns the sweep off. */
  ORDER_SWEEP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** LINE Login (docs/decisions/211): the channel's id and secret; both set, the shop offers เข้าสู่ระบบด้วย LINE. */
  LINE_CHANNEL_ID: z.string().trim().regex(/^[0-9A-Za-z_-]{1,64}$/, 'must be the LINE Login channel ID').optional(),
  LINE_CHANNEL_SECRET: z.string().trim().min(8, 'must be the LINE Login channel secret').optional(),
  /** Where LINE Login's OpenID Connect metadata is found; tests point it at a local provider. */
  LINE_ISSUER_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://access.line.me' }).default('https://access.line.me'),
}).superRefine((value, context) => {
  // Half a LINE channel would hide the button without a word: say which half is missing.
  if (Boolean(value.LINE_CHANNEL_ID) !== Boolean(value.LINE_CHANNEL_SECRET)) {
    const missing = value.LINE_CHANNEL_ID ? 'LINE_CHANNEL_SECRET' : 'LINE_CHANNEL_ID';
    context.addIssue({ code: 'custom', path: [missing], message: 'must be set together with the other LINE_CHANNEL_ variable' });
  }
});

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates a set of variables; throws ConfigError with one line per bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = source[key];
    if (value !== undefined && value !== '') cleaned[key] = value;
  }
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'configuration');
      return `Invalid configuration: ${name} ${issue.message} (got ${JSON.stringify(source[name] ?? '')})`;
    });
    throw new ConfigError(lines.join('\n'));
  }
  return result.data;
}

let cached: Env | undefined;

/** The process configuration, parsed on first use and kept. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
