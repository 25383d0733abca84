// npm test: typecheck, lint, build, the vitest unit suites (and the server's again on PostgreSQL
// when TEST_DATABASE_URL is set), the browser tests in Chromium, the reduced
// fault-injection suites, then the single binary, then the README's two commands in a fresh clone
// on an older Node when the machine has one.
// Without a Chromium the browser tests are skipped with a hint, and the run fails when CI is set.
import './require-node.mjs'; // first: refuses an old Node with a message
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function run(label, cmd, args, env = process.env) {
  console.log(`\n== ${label}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', shell: false, env });
  if (res.status !== 0) {
    console.error(`\n${label} failed`);
    process.exit(res.status ?? 1);
  }
}

console.log(`== Node ${process.version} (${process.execPath}), ${process.platform}-${process.arch}`);

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
run('typecheck', npx, ['tsc', '-p', '.']);
run('lint', npx, ['biome', 'check', '.']);
run('build', process.execPath, ['build/build.mjs']);
const { TEST_DATABASE_URL, ...sqliteEnv } = process.env;
run('unit and route tests (SQLite)', npx, ['vitest', 'run', '--project', 'unit'], sqliteEnv);
// The server's suites again on PostgreSQL: every test app gets a database of its own.
if (TEST_DATABASE_URL) {
  run('route and money tests on PostgreSQL', npx, ['vitest', 'run', '--project', 'unit', 'src-server']);
} else {
  console.error(
    '\nNo TEST_DATABASE_URL: the route and money tests did not run on PostgreSQL.\n' +
      'Get one with: sudo apt-get install -y postgresql && . .ci/postgres.sh   (then npm test again)\n',
  );
  if (process.env.CI) process.exit(1);
  console.error('Skipping the PostgreSQL run (set CI=1 to make this a failure).');
}
if (existsSync(CHROMIUM)) {
  run('browser tests', npx, ['vitest', 'run', '--project', 'e2e']);
} else {
  console.error(
    `\nNo Chromium at ${CHROMIUM}: the browser tests need one.\n` +
      'Install it with: sudo apt-get install -y chromium   (or set CHROMIUM_PATH)\n',
  );
  if (process.env.CI) process.exit(1);
  console.error('Skipping the browser tests (set CI=1 to make this a failure).');
}

// The fault-injection suites in their reduced form (npm run test:faults runs them at full length);
// then the load and hostile suites again on PostgreSQL when the run has one: the load
// suite over three app nodes on one database and one bucket, its 64 clients spread across them.
run('fault-injection suites (reduced)', npx, ['vitest', 'run', '--config', 'faults/vitest.config.ts']);
if (TEST_DATABASE_URL) {
  run(
    'load (three nodes) and hostile fault suites on PostgreSQL (reduced)',
    npx,
    [
      'vitest',
      'run',
      '--config',
      'faults/vitest.config.ts',
      'faults/load.fault.ts',
      'faults/hostile.fault.ts',
    ],
    {
      ...process.env,
      FAULTS_POSTGRES: '1',
      FAULTS_NODES: '3',
    },
  );
}

// The single binary: built, copied alone into an empty folder, and run there (build/binary.check.ts).
// A machine that cannot build it skips the step with a hint; with CI set that is a failure.
console.log('\n== single binary');
const sea = spawnSync(process.execPath, ['build/binary.mjs'], { stdio: 'inherit' });
if (sea.status === 0) {
  run('single binary tests', npx, ['vitest', 'run', '--config', 'build/binary.vitest.config.ts']);
} else {
  console.error('\nThe single binary could not be built (see above); its tests did not run.');
  if (process.env.CI) process.exit(1);
  console.error('Skipping the single-binary tests (set CI=1 to make this a failure).');
}

// `npm install && npm start` in a fresh clone with the machine's older Node first on PATH
// (build/fresh-clone.check.ts; it skips itself, saying so, where there is no older Node).
run("the README's two commands on an older Node", npx, [
  'vitest',
  'run',
  '--config',
  'build/fresh-clone.vitest.config.ts',
]);
