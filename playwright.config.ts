import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests against the built server with a fresh in-memory database. `npm test` finds a
 * Chromium first (scripts/find-chromium.mjs) and passes it in PLAYWRIGHT_CHROMIUM_EXECUTABLE.
 */
const port = Number(process.env.E2E_PORT ?? 4399);
// Per port, so two suites on one machine never share mail outboxes or operator sockets.
export const e2eDataDir = process.env.E2E_DATA_DIR ?? `${process.env.TMPDIR ?? '/tmp'}/shop-e2e-${port}`;
const executablePath = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE;
const launchOptions = {
  ...(executablePath ? { executablePath } : {}),
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
};

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  // Tests, not files, are shared out, so one long file (the axe checks) does not hold a worker alone
  // while the others finish. Three workers on two cores: a browser test waits on the server and on
  // painting more than it computes, so two workers left a core idle (docs/decisions/170).
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'th-TH',
    timezoneId: 'Asia/Bangkok',
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions,
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions } },
    // The phone runs the journeys and the pages whose layout changes with the screen, tagged `@phone`
    // (docs/decisions/170); rules that read the same on every screen run once, on the desktop.
    { name: 'phone', grep: /@phone/, use: { ...devices['Pixel 7'], launchOptions } },
  ],
  webServer: {
    command: 'node runtime/main.ts',
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: 'memory://',
      DATA_DIR: e2eDataDir,
      PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      // Staff accounts for the order steps of tests/e2e/checkout.spec.ts (docs/decisions/061).
      SHOP_ADMIN_EMAILS: 'staff-desktop@e2e.test,staff-phone@e2e.test',
      // Every test browser signs up from 127.0.0.1: far more than a real shopper's address would.
      REGISTER_PER_IP_PER_HOUR: '1000',
      // LINE Login on, so axe and the layouts see its button and the profile's LINE section; no test here goes
      // to LINE (tests/server/line-login.test.ts does, against a local OpenID Connect provider).
      LINE_CHANNEL_ID: '1650000000',
      LINE_CHANNEL_SECRET: 'e2e-line-channel-secret',
      LINE_ISSUER_URL: 'http://127.0.0.1:9',
    },
  },
});
