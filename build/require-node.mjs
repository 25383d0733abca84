// Stops at once, with what to do instead of a stack trace, when this Node is older than the
// project's (package.json "engines"). Imported first by the build and test scripts; the server
// bundle's loader carries the same check (build.mjs). Plain syntax: it has to run on the old Node.
import { satisfies, tooOldMessage } from './node-version.mjs';

if (!satisfies(process.versions.node)) {
  console.error(tooOldMessage());
  process.exit(1);
}
