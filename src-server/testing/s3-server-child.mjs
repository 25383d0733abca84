// The test S3 server's own process (started by s3-server.ts, never by the app): @20minutes/s3rver
// makes ListObjectsV2's continuation tokens with DES, which Node's OpenSSL 3 offers only under
// --openssl-legacy-provider, a flag a test worker cannot turn on for itself. Prints
// {"port":N} once listening; stops when its standard input closes (so also when the test dies).
import S3rver from '@20minutes/s3rver';

const { directory, bucket } = JSON.parse(process.argv[2]);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  // its SigV4 check of bucket requests (ListObjectsV2) disagrees with the SDK's canonical path for
  // them ("/bucket/" against its "/bucket"); access keys are still checked
  allowMismatchedSignatures: true,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  server.close().finally(() => process.exit(0));
});
