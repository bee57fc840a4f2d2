import "./service-env";
import { s3Storage } from "~/server/storage.server";

/** Once per test run: the S3 bucket the app and the tests write to (production buckets exist already). */
export default async function setup() {
  await s3Storage({
    bucket: process.env.S3_BUCKET!,
    endpoint: process.env.S3_ENDPOINT,
    region: process.env.S3_REGION!,
    accessKeyId: process.env.S3_ACCESS_KEY_ID,
    secretAccessKey: process.env.S3_SECRET_ACCESS_KEY,
  }).ensureBucket();
}
