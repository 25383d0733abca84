import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LineWriter } from './line-writer';
import { captureLines, createLogger, writeRequestLine } from './logger';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-lines-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('the line writer', () => {
  it('writes every line once, in order, in writes of many lines, and the rest on its timer', async () => {
    const file = join(dir, 'out.log');
    const fd = openSync(file, 'w');
    const writer = new LineWriter(fd, 50);
    const lines = Array.from({ length: 5_000 }, (_, i) => `{"n":${i},"text":"satır ${i} ığüşöç"}\n`);
    for (const line of lines) writer.write(line);
    // fewer bytes than one write holds: only the timer sends these
    writer.write('{"n":"last"}\n');
    const expected = `${lines.join('')}{"n":"last"}\n`;
    await until(() => readFileSync(file, 'utf8').length >= expected.length);
    expect(readFileSync(file, 'utf8')).toBe(expected);
    closeSync(fd);
  });

  it('writes what is still waiting when asked to at exit', () => {
    const file = join(dir, 'exit.log');
    const fd = openSync(file, 'w');
    const writer = new LineWriter(fd, 60_000);
    writer.write('{"msg":"stopping"}\n');
    expect(readFileSync(file, 'utf8')).toBe('');
    writer.flushSync();
    expect(readFileSync(file, 'utf8')).toBe('{"msg":"stopping"}\n');
    closeSync(fd);
  });
});

describe('the request line', () => {
  it('is the JSON line pino would write: the same fields, level, time and node', async () => {
    const seen: string[] = [];
    const logger = await createLogger({ level: 'info', format: 'json', node: 'node "a"' }, {
      write: (s: string) => seen.push(s),
    } as unknown as NodeJS.WritableStream);
    writeRequestLine(logger, 'info', {
      reqId: 'r-1',
      method: 'GET',
      route: '/api/tasks/:id',
      status: 200,
      ms: 1.5,
    });
    writeRequestLine(logger, 'error', {
      reqId: 'r-2',
      method: 'POST',
      route: '/api/submissions',
      status: 500,
      ms: 12,
      userId: 'u1',
    });
    logger.info({ reqId: 'r-3', method: 'GET', route: '/x', status: 200, ms: 1 }, 'request');
    const [a, b, viaPino] = seen.map((line) => JSON.parse(line));
    expect(a).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      node: 'node "a"',
      reqId: 'r-1',
      method: 'GET',
      route: '/api/tasks/:id',
      status: 200,
      ms: 1.5,
      msg: 'request',
    });
    expect(b).toMatchObject({ level: 'error', status: 500, userId: 'u1', msg: 'request' });
    // the same keys in the same order as a line pino makes
    expect(Object.keys(a)).toEqual(Object.keys(viaPino));
    expect(seen.every((line) => line.endsWith('}\n'))).toBe(true);
  });

  it('goes through pino on a pretty logger', async () => {
    const captured = captureLines();
    const pretty = await createLogger({ level: 'info', format: 'pretty', node: 'n' }, captured.stream);
    writeRequestLine(pretty, 'info', {
      reqId: 'r-9',
      method: 'GET',
      route: '/api/tasks',
      status: 200,
      ms: 2,
    });
    await until(() => captured.lines.length > 0);
    expect(captured.lines.join('\n')).toContain('request');
    expect(captured.lines.join('\n')).not.toContain('{"level"');
  });
});
