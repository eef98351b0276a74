/**
 * Where scheduled backups are kept (decision 207): the folder `DATA_DIR/backups`, or, with STORAGE_URL,
 * the same bucket under `backups/` (beside `public/` and `private/`, so a backup never holds the older
 * backups: it copies only the uploads). An archive is first written whole to a local `.part` file, then
 * kept under its name (a rename, or one upload), so the store never shows half an archive.
 */
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseStorageUrl, s3Client, type S3Options } from '../storage/s3.ts';

export interface BackupStore {
  /** Where, for the logs and the operator: a folder or `s3://bucket/backups/`. */
  readonly where: string;
  /** The archives' names (no folder). */
  list(): Promise<string[]>;
  /** Keeps the finished local file `file` as `name`; the local file is gone afterwards. */
  keep(file: string, name: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** The local folder a store writes its `.part` files in (the store itself, for the local one). */
export function workFolder(dataDir: string): string {
  return path.resolve(dataDir, 'backups');
}

export function localBackupStore(folder: string): BackupStore {
  return {
    where: folder,
    async list() {
      try {
        return (await readdir(folder, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    },
    async keep(file, name) {
      await mkdir(folder, { recursive: true });
      await rename(file, path.join(folder, path.basename(name)));
    },
    async delete(name) {
      await rm(path.join(folder, path.basename(name)), { force: true });
    },
  };
}

const S3_PREFIX = 'backups/';

export function s3BackupStore(options: S3Options): BackupStore {
  const connect = s3Client(options);
  return {
    where: `s3://${options.bucket}/${S3_PREFIX}`,
    async list() {
      const { sdk, client } = await connect();
      const names: string[] = [];
      let continuationToken: string | undefined;
      do {
        const answer = await client.send(
          new sdk.ListObjectsV2Command({ Bucket: options.bucket, Prefix: S3_PREFIX, ...(continuationToken ? { ContinuationToken: continuationToken } : {}) }),
        );
        for (const object of answer.Contents ?? []) {
          const name = object.Key?.slice(S3_PREFIX.length) ?? '';
          if (name && !name.includes('/')) names.push(name);
        }
        continuationToken = answer.IsTruncated ? answer.NextContinuationToken : undefined;
      } while (continuationToken);
      return names;
    },
    async keep(file, name) {
      try {
        const { sdk, client } = await connect();
        const { size } = await stat(file);
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: options.bucket,
            Key: `${S3_PREFIX}${path.basename(name)}`,
            Body: createReadStream(file),
            ContentLength: size,
            ContentType: 'application/gzip',
          }),
        );
      } finally {
        await rm(file, { force: true });
      }
    },
    async delete(name) {
      const { sdk, client } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: options.bucket, Key: `${S3_PREFIX}${path.basename(name)}` }));
    },
  };
}

/** The store the configuration names: S3 with STORAGE_URL (keys from the environment), else DATA_DIR/backups. */
export function backupStoreFor(config: { DATA_DIR: string; STORAGE_URL?: string | undefined }): BackupStore {
  return config.STORAGE_URL ? s3BackupStore(parseStorageUrl(config.STORAGE_URL)) : localBackupStore(workFolder(config.DATA_DIR));
}
