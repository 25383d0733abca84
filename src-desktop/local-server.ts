import { runCommand, type ServerProcess, type ServerProgram, startServer } from './server-process';

/** The outcome of a backup or restore run from the menus, with the command's own words. */
export interface CommandOutcome {
  ok: boolean;
  output: string;
}

/**
 * The desktop app's own server: one child process over the data folder in the user's app-data
 * folder, started and stopped with the app. Backup and restore run the same CLI commands as an
 * operator would; restore stops the server first (it refuses a folder in use) and starts it
 * again afterwards, whether or not the restore succeeded.
 */
export class LocalServer {
  private current: ServerProcess | null = null;

  constructor(
    private readonly program: ServerProgram,
    readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The running server, if any. */
  get running(): ServerProcess | null {
    return this.current;
  }

  /** The link that creates the first admin, while the running server has none (else null). */
  get setupUrl(): string | null {
    return this.current?.setupUrl ?? null;
  }

  /** Starts the server (once) and resolves with its base URL. */
  async start(): Promise<string> {
    if (!this.current) {
      this.current = await startServer({ program: this.program, dataDir: this.dataDir, env: this.env });
      const mine = this.current;
      void mine.exited.then(() => {
        if (this.current === mine) this.current = null;
      });
    }
    return this.current.url;
  }

  /** Stops the server cleanly (SIGTERM, then SIGKILL after `timeoutMs`). */
  async stop(timeoutMs?: number): Promise<void> {
    const running = this.current;
    this.current = null;
    if (running) await running.stop(timeoutMs);
  }

  /** `backup <file>` over the data folder; the server keeps running and taking writes. */
  async backup(file: string): Promise<CommandOutcome> {
    const { code, output } = await runCommand(
      this.program,
      ['backup', file, '--data', this.dataDir],
      this.env,
    );
    return { ok: code === 0, output };
  }

  /** Stops the server, runs `restore <file>`, starts the server again; resolves with the new URL. */
  async restore(file: string): Promise<CommandOutcome & { url: string }> {
    await this.stop();
    let outcome: CommandOutcome;
    try {
      const { code, output } = await runCommand(
        this.program,
        ['restore', file, '--data', this.dataDir],
        this.env,
      );
      outcome = { ok: code === 0, output };
    } finally {
      // the app needs its server back either way (a refused restore left the old folder as it was)
      await this.start();
    }
    return { ...outcome, url: await this.start() };
  }
}
