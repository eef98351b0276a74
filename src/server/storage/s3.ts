import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
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

function isMissing(error: unknown): boolean {
  if (error instanceof NoSuchKey || error instanceof NotFound) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404;
}

/** A client for the bucket's server (path-style addressing for anything but AWS itself). */
export function s3Client(options: S3Options): S3Client {
  const config: S3ClientConfig = { region: options.region };
  if (options.endpoint) {
    config.endpoint = options.endpoint;
    config.forcePathStyle = true;
  }
  if (options.credentials) config.credentials = options.credentials;
  return new S3Client(config);
}

export function s3Driver(options: S3Options): StorageDriver {
  const client = s3Client(options);
  const objectKey = (visibility: Visibility, key: string) => {
    if (!isValidKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
    return `${visibility}/${key}`;
  };
  return {
    name: 's3',
    async put(visibility, key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: objectKey(visibility, key),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
        }),
      );
    },
    async get(visibility, key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(visibility, key) }));
        if (!answer.Body) return null;
        const bytes = await answer.Body.transformToByteArray();
        return { bytes, contentType: answer.ContentType ?? contentTypeFor(key) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(visibility, key) {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: objectKey(visibility, key) }));
    },
    async exists(visibility, key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key: objectKey(visibility, key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async list(visibility, prefix) {
      const listed = [];
      let continuationToken: string | undefined;
      do {
        const answer = await client.send(
          new ListObjectsV2Command({ Bucket: options.bucket, Prefix: `${visibility}/${prefix}`, ...(continuationToken ? { ContinuationToken: continuationToken } : {}) }),
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
