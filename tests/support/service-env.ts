/**
 * Points the app's server modules at the test services started by
 * `scripts/services.sh start test` (the test command starts them). Values already
 * in the environment win, so the same tests can run against other servers. The
 * ports move by TEST_PORT_OFFSET as the services' and the app's do (services.sh,
 * test-lib.sh), so a bare `npx vitest` in a checkout on its own offset finds its own.
 */
const offset = Number(process.env.TEST_PORT_OFFSET ?? 0) || 0;
const port = (base: number) => base + offset;
const defaults: Record<string, string> = {
  NODE_ENV: "test",
  MONGODB_URI: `mongodb://127.0.0.1:${port(22017)}/rapid-website-e2e`, // the test app's database (npm test sets the same)
  SMTP_URL: `smtp://127.0.0.1:${port(21025)}`,
  MAILPIT_API_URL: `http://127.0.0.1:${port(23025)}`,
  S3_ENDPOINT: `http://127.0.0.1:${port(24070)}`,
  S3_REGION: "us-east-1",
  S3_BUCKET: "rapid-website",
  S3_ACCESS_KEY_ID: "local-access-key",
  S3_SECRET_ACCESS_KEY: "local-secret-key-for-versitygw",
  STRIPE_API_BASE: `http://127.0.0.1:${port(25111)}`,
  STRIPE_SECRET_KEY: "sk_test_123",
  STRIPE_WEBHOOK_SECRET: "whsec_local_test_secret",
  OUTBOX_BACKOFF_MS: "200",
  OUTBOX_POLL_MS: "200",
  APP_URL: `http://127.0.0.1:${port(3100)}`,
};
for (const [key, value] of Object.entries(defaults)) process.env[key] ??= value;
