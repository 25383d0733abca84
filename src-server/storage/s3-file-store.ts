import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import type { FileStore, ListedFile, StoredFile, TempArea } from './file-store';
import {
  contentTypeOf,
  type FileKind,
  isStoredName,
  newStoredName,
  type StoredContentType,
} from './stored-names';

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

  /**
   * Sends one command; an error other than a missing key says which bucket and what was tried,
   * so a wrong bucket, endpoint or key is plain in the log and in `doctor`'s output.
   */
  private async send<T>(what: string, request: (sdk: Sdk, client: S3Client) => Promise<T>): Promise<T> {
    const { sdk, client } = await this.connect();
    try {
      return await request(sdk, client);
    } catch (err) {
      if (err instanceof Error && !isMissing(err)) {
        const hint = /credentials/i.test(err.message)
          ? ' (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the machine a role)'
          : '';
        err.message = `${this.description}: ${what}: ${err.message}${hint}`;
      }
      throw err;
    }
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
    const name = newStoredName(contentType);
    await this.put(kind, name, bytes, contentType);
    return name;
  }

  async saveAs(kind: FileKind, name: string, bytes: Uint8Array): Promise<void> {
    const contentType = contentTypeOf(name);
    if (!contentType) throw new Error(`not a stored file name: ${name}`);
    await this.put(kind, name, bytes, contentType);
  }

  private async put(kind: FileKind, name: string, bytes: Uint8Array, contentType: StoredContentType) {
    const key = this.key(kind, name);
    await this.send(`writing ${key}`, (sdk, client) =>
      client.send(
        new sdk.PutObjectCommand({
          Bucket: this.config.bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
        }),
      ),
    );
  }

  async read(kind: FileKind, name: string): Promise<StoredFile | null> {
    const contentType = contentTypeOf(name);
    if (!contentType) return null;
    const key = this.key(kind, name);
    try {
      const res = await this.send(`reading ${key}`, (sdk, client) =>
        client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: key })),
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
    const key = this.key(kind, name);
    // deleting a missing key succeeds on S3 (204); some servers answer 404, which is as good
    try {
      await this.send(`deleting ${key}`, (sdk, client) =>
        client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: key })),
      );
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  async list(kind: FileKind): Promise<string[]> {
    return (await this.listWithTimes(kind)).map((f) => f.name);
  }

  /** Every key under `<prefix><kind>/`, page by page (1,000 a page), with its LastModified and Size. */
  async listWithTimes(kind: FileKind): Promise<ListedFile[]> {
    const under = this.key(kind, '');
    const out: ListedFile[] = [];
    let token: string | undefined;
    do {
      const after = token;
      const page = await this.send(`listing ${under}`, (sdk, client) =>
        client.send(
          new sdk.ListObjectsV2Command({
            Bucket: this.config.bucket,
            Prefix: under,
            ContinuationToken: after,
          }),
        ),
      );
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(under.length) ?? '';
        // anything else under the prefix (a folder marker, a file put there by hand) is not ours
        // (no LastModified, which S3 always sends, would count as fresh: clean-ups spare it)
        if (isStoredName(name))
          out.push({ name, modified: object.LastModified ?? new Date(), size: object.Size ?? -1 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
