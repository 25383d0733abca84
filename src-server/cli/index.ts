import { parseArgs } from 'node:util';
import { version } from '../../package.json';
import { openApp } from '../bootstrap';
import { readConfig } from '../config';
import { createOrPromoteAdmin } from '../features/users/admin-account';
import { backupCommand } from './backup';
import { type Command, configWith, type OptionValues } from './command';
import { doctorCommand } from './doctor';
import { isSingleBinary } from './is-single-binary';
import { moveToPostgresCommand } from './move-to-postgres';
import { restoreCommand } from './restore';
import { runServe } from './serve';

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: 'serve the web app and the API (the default)',
    usage: 'serve [--port N] [--host H] [--data DIR]',
    options: { port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' } },
    async run(v) {
      const config = readConfig({
        ...process.env,
        ...(typeof v.port === 'string' ? { PORT: v.port } : {}),
        ...(typeof v.host === 'string' ? { HOST: v.host } : {}),
        ...(typeof v.data === 'string' ? { DATA_DIR: v.data } : {}),
      });
      await runServe(config);
      return undefined;
    },
  },
  migrate: {
    summary: 'apply pending database migrations and exit',
    usage: 'migrate [--data DIR]',
    options: { data: { type: 'string' } },
    async run(v) {
      const opened = await openApp(configWith(v), { web: new Map() });
      await opened.close();
      console.log('database is up to date');
      return 0;
    },
  },
  'create-admin': {
    summary: 'create an admin account, or make an existing account an admin',
    usage: 'create-admin --email E --password P --name N [--data DIR]',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      data: { type: 'string' },
    },
    async run(v) {
      if (typeof v.email !== 'string' || typeof v.password !== 'string') {
        console.error('create-admin needs --email and --password');
        return 2;
      }
      const opened = await openApp(configWith(v), { web: new Map() });
      try {
        const name = typeof v.name === 'string' ? v.name : 'Admin';
        const result = await createOrPromoteAdmin(opened.deps, {
          email: v.email,
          password: v.password,
          name,
        });
        console.log(result === 'created' ? `admin ${v.email} created` : `${v.email} is now an admin`);
        return 0;
      } finally {
        await opened.close();
      }
    },
  },
  backup: backupCommand,
  restore: restoreCommand,
  doctor: doctorCommand,
  'move-to-postgres': moveToPostgresCommand,
};

function help(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(17)} ${c.summary}`);
  return `taskreward <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "taskreward <command> --help" for a command's options, "taskreward --version" for the versions.`;
}

/** The app's version and the Node that runs it (the single binary's own, embedded). */
export function versionText(): string {
  const how = isSingleBinary() ? 'single binary' : process.execPath;
  return `taskreward ${version}\nNode.js ${process.version} (${process.platform}-${process.arch}, ${how})`;
}

/** Runs one CLI command; resolves to an exit code, or undefined while a server keeps running. */
export async function runCli(argv: string[]): Promise<number | undefined> {
  const first = argv[0];
  if (first === '--help' || first === '-h' || first === 'help') {
    console.log(help());
    return 0;
  }
  if (first === '--version' || first === '-v') {
    console.log(versionText());
    return 0;
  }
  const name = first && !first.startsWith('-') ? first : 'serve';
  const rest = name === first ? argv.slice(1) : argv;
  const command = COMMANDS[name];
  if (!command) {
    console.error(`unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (err) {
    console.error(`${(err as Error).message}\nusage: taskreward ${command.usage}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(
      `usage: taskreward ${command.usage}\n\n${command.summary}${command.details ? `\n\n${command.details}` : ''}`,
    );
    return 0;
  }
  return command.run(parsed.values as OptionValues, parsed.positionals);
}
