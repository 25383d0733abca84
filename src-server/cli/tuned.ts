// Imported first by main.ts, so the server starts itself again with glibc's malloc tuned before
// any other module (sharp's libvips, argon2, SQLite) is loaded: see malloc-tunables.ts.
import { startTuned } from './malloc-tunables';

startTuned();
