import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_SUBSCRIBERS_SEGMENT, oneSignalNotifier, PushError, type PushMessage } from './push';
import { closedPortUrl, type PushRecorder, startPushRecorder } from './push-recorder';

let rec: PushRecorder;
beforeAll(async () => {
  rec = await startPushRecorder();
});
afterAll(() => rec.close());
beforeEach(() => {
  rec.requests.length = 0;
  rec.reply({ status: 200, body: '{"id":"n-9"}' });
});

const message: PushMessage = {
  type: 'customMessage',
  target: { playerId: 'player-1' },
  headings: { en: 'Hi', tr: 'Selam' },
  contents: { en: 'Body', tr: 'Gövde' },
};
const notifier = (overrides: Partial<Parameters<typeof oneSignalNotifier>[0]> = {}) =>
  oneSignalNotifier({ appId: 'app-1', apiKey: 'key-1', baseUrl: `${rec.url}/`, ...overrides });

describe('oneSignalNotifier', () => {
  it('posts the notification to {base}/notifications with the REST API key', async () => {
    expect(await notifier().send(message)).toEqual({ id: 'n-9' });
    expect(rec.requests).toHaveLength(1);
    const [req] = rec.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/notifications' });
    expect(req.headers.authorization).toBe('Key key-1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual({
      app_id: 'app-1',
      target_channel: 'push',
      include_subscription_ids: ['player-1'],
      headings: { en: 'Hi', tr: 'Selam' },
      contents: { en: 'Body', tr: 'Gövde' },
      data: { type: 'customMessage' },
    });
  });

  it('sends to every subscribed device through the segment', async () => {
    await notifier().send({ ...message, target: 'all' });
    expect(rec.requests[0].body).toMatchObject({ included_segments: [ALL_SUBSCRIBERS_SEGMENT] });
    expect(rec.requests[0].body).not.toHaveProperty('include_subscription_ids');
  });

  it('accepts a 2xx reply that is not JSON', async () => {
    rec.reply({ status: 200, body: 'ok' });
    expect(await notifier().send(message)).toEqual({ id: null });
  });

  it.each<
    [string, () => Promise<Partial<Parameters<typeof oneSignalNotifier>[0]>>, 'not_configured' | 'failed']
  >([
    ['no app id', async () => ({ appId: null }), 'not_configured'],
    ['no API key', async () => ({ apiKey: null }), 'not_configured'],
    [
      'a 500',
      async () => {
        rec.reply({ status: 500, body: 'boom' });
        return {};
      },
      'failed',
    ],
    [
      'a 400 with errors',
      async () => {
        rec.reply({ status: 400, body: '{"errors":["app_id not found"]}' });
        return {};
      },
      'failed',
    ],
    [
      'a 200 naming errors without an id',
      async () => {
        rec.reply({ status: 200, body: '{"id":"","errors":["All included players are not subscribed"]}' });
        return {};
      },
      'failed',
    ],
    ['a closed port', async () => ({ baseUrl: await closedPortUrl() }), 'failed'],
    [
      'a service that does not answer in time',
      async () => {
        rec.reply('hang');
        return { timeoutMs: 100 };
      },
      'failed',
    ],
  ])('throws PushError on %s', async (_label, setup, reason) => {
    const options = await setup();
    const push = notifier(options);
    const error = await push.send(message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PushError);
    expect(error).toMatchObject({ reason });
    if (reason === 'not_configured') {
      expect(push.configured).toBe(false);
      expect(rec.requests).toEqual([]);
    }
  });
});
