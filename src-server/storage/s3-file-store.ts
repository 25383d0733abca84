import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import {
  contentTypeOf,
  type FileKind,
  type FileStore,
  isStoredName,
  newStoredName,
  type StoredContentType,
  type StoredFile,
  type TempArea,
} from './file-store';

type Sdk = typeof import('@aws-sdk/client-s3');

/** The SDK's error for a key that is not there; a missing bucket is a misconfiguration, not this. */
function isMissing(err: unknown): boolean {
  if (!(err instanceof Error) || err.name === 'NoSuchBucket') return false;
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || status === 404;
}

/**
 * The stored files in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO...), under the keys
 * `<prefix>proofs/<name>` and `<prefix>images/<name>`, shared by every app node. A PutObject is
 * durable when it returns (the provider has stored the object redundantly before it answers), so
 * a save that returned survives a crash before its row commits, as the local store's fsync does.
 * Uploads are still staged in the node's own temp folder. The SDK (~1 MB of code) is loaded at
 * the first request, so a server without S3 never loads it.
 */
export class S3FileStore implements FileStore {
  readonly shared = true;
  private client: Promise<{ sdk: Sdk; client: S3Client }> | null = null;

  constructor(
    private readonly temp: TempArea,
    private readonly config: S3Config,
  ) {}

  get description(): string {
    const { bucket, prefix, endpoint } = this.config;
    return `S3 bucket ${bucket}${prefix ? ` (prefix ${prefix})` : ''}${endpoint ? ` at ${endpoint}` : ''}`;
  }

  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.client ??= import('@aws-sdk/client-s3').then((sdk) => {
      const { endpoint, region, forcePathStyle, credentials } = this.config;
      const client = new sdk.S3Client({
        region,
        ...(endpoint ? { endpoint } : { followRegionRedirects: true }),
        forcePathStyle,
        // null: the SDK's own chain (its environment variables, shared files, instance roles)
        ...(credentials ? { credentials } : {}),
        // The SDK's default since 2025 adds CRC32 checksums (and for streamed bodies an
        // aws-chunked trailer) that R2, MinIO's older releases and other S3-compatible servers
        // refuse or store verbatim. Checksums only where an operation requires one; every body
        // here is a Buffer, signed with its SHA-256 (x-amz-content-sha256), which the server checks.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
      });
      return { sdk, client };
    });
    return this.client;
  }

  private key(kind: FileKind, name: string): string {
    return `${this.config.prefix}${kind}/${name}`;
  }

  tempPath(): string {
    return this.temp.tempPath();
  }

  discardTemp(path: string): Promise<void> {
    return this.temp.discardTemp(path);
  }

  listTemp(): Promise<string[]> {
    return this.temp.listTemp();
  }

  async save(kind: FileKind, bytes: Uint8Array, contentType: StoredContentType): Promise<string> {
    const { sdk, client } = await this.connect();
    const name = newStoredName(contentType);
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.config.bucket,
        Key: this.key(kind, name),
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.byteLength,
      }),
    );
    return name;
  }

  async read(kind: FileKind, name: string): Promise<StoredFile | null> {
    const contentType = contentTypeOf(name);
    if (!contentType) return null;
    const { sdk, client } = await this.connect();
    try {
      const res = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: this.key(kind, name) }),
      );
      if (!res.Body) return null;
      const bytes = await res.Body.transformToByteArray();
      return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async remove(kind: FileKind, name: string): Promise<void> {
    if (!isStoredName(name)) return;
    const { sdk, client } = await this.connect();
    // deleting a missing key succeeds on S3 (204); some servers answer 404, which is as good
    try {
      await client.send(
        new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.key(kind, name) }),
      );
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  async list(kind: FileKind): Promise<string[]> {
    return (await this.listWithTimes(kind)).map((f) => f.name);
  }

  /** Every key under `<prefix><kind>/`, page by page (1,000 a page), with its LastModified. */
  async listWithTimes(kind: FileKind): Promise<{ name: string; modified: Date }[]> {
    const { sdk, client } = await this.connect();
    const under = this.key(kind, '');
    const out: { name: string; modified: Date }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: under, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(under.length) ?? '';
        // anything else under the prefix (a folder marker, a file put there by hand) is not ours
        // (no LastModified, which S3 always sends, would count as fresh: clean-ups spare it)
        if (isStoredName(name)) out.push({ name, modified: object.LastModified ?? new Date() });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
