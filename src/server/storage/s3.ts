import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { contentTypeFor, isValidKey, type StorageDriver, type Visibility } from './driver.ts';

/**
 * The S3-compatible driver (docs/design.md section 11), for several instances sharing their uploads: AWS S3,
 * MinIO, Cloudflare R2, DigitalOcean Spaces… One bucket; public and private objects under their own
 * prefixes (`public/…`, `private/…`). The shop itself serves public objects at /media (so pictures stay on
 * the shop's origin and its CSP); the bucket needs no public access at all.
 */
export interface S3Options {
  bucket: string;
  /** Unset for AWS itself; the server's address for anything else (path-style addressing is then used). */
  endpoint?: string;
  region: string;
  /** From the environment (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY) when not given. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** `s3://bucket?endpoint=https://…&region=…` → options. */
export function parseStorageUrl(url: string): S3Options {
  const parsed = new URL(url);
  if (parsed.protocol !== 's3:' || !parsed.hostname) throw new Error('STORAGE_URL must look like s3://bucket?endpoint=…&region=…');
  const endpoint = parsed.searchParams.get('endpoint') ?? undefined;
  return {
    bucket: parsed.hostname,
    ...(endpoint ? { endpoint } : {}),
    region: parsed.searchParams.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
  };
}

export type S3Sdk = typeof import('@aws-sdk/client-s3');
let sdkLoading: Promise<S3Sdk> | undefined;

/**
 * The AWS SDK, imported on first use: a shop on its own disk never loads it, and it took a tenth of a
 * second and more of every start and every test file that reaches the storage (docs/decisions/231).
 */
export function s3Sdk(): Promise<S3Sdk> {
  sdkLoading ??= import('@aws-sdk/client-s3');
  return sdkLoading;
}

function isMissing(sdk: S3Sdk, error: unknown): boolean {
  if (error instanceof sdk.NoSuchKey || error instanceof sdk.NotFound) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404;
}

/**
 * A client for the bucket's server (path-style addressing for anything but AWS itself), with the SDK
 * whose commands it sends: made on the first call, the same one after it.
 */
export function s3Client(options: S3Options): () => Promise<{ sdk: S3Sdk; client: S3Client }> {
  let made: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  return () => {
    made ??= s3Sdk().then((sdk) => {
      const config: S3ClientConfig = { region: options.region };
      if (options.endpoint) {
        config.endpoint = options.endpoint;
        config.forcePathStyle = true;
      }
      if (options.credentials) config.credentials = options.credentials;
      return { sdk, client: new sdk.S3Client(config) };
    });
    return made;
  };
}

export function s3Driver(options: S3Options): StorageDriver {
  const connect = s3Client(options);
  const objectKey = (visibility: Visibility, key: string) => {
    if (!isValidKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
    return `${visibility}/${key}`;
  };
  return {
    name: 's3',
    async put(visibility, key, bytes, contentType) {
      const { sdk, client } = await connect();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: options.bucket,
          Key: objectKey(visibility, key),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
        }),
      );
    },
    async get(visibility, key) {
      const { sdk, client } = await connect();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: options.bucket, Key: objectKey(visibility, key) }));
        if (!answer.Body) return null;
        const bytes = await answer.Body.transformToByteArray();
        return { bytes, contentType: answer.ContentType ?? contentTypeFor(key) };
      } catch (error) {
        if (isMissing(sdk, error)) return null;
        throw error;
      }
    },
    async delete(visibility, key) {
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: options.bucket, Key: objectKey(visibility, key) }));
    },
    async exists(visibility, key) {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: options.bucket, Key: objectKey(visibility, key) }));
        return true;
      } catch (error) {
        if (isMissing(sdk, error)) return false;
        throw error;
      }
    },
    async list(visibility, prefix) {
      const { sdk, client } = await connect();
      const listed = [];
      let continuationToken: string | undefined;
      do {
        const answer = await client.send(
          new sdk.ListObjectsV2Command({ Bucket: options.bucket, Prefix: `${visibility}/${prefix}`, ...(continuationToken ? { ContinuationToken: continuationToken } : {}) }),
        );
        for (const object of answer.Contents ?? []) {
          if (object.Key) listed.push({ key: object.Key.slice(visibility.length + 1), modifiedAt: object.LastModified ?? new Date(0) });
        }
        continuationToken = answer.IsTruncated ? answer.NextContinuationToken : undefined;
      } while (continuationToken);
      return listed;
    },
  };
}
