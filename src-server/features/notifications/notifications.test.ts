import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_TYPES } from '../../contract/constants';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { NOTIFICATION_TEXTS } from './notification-texts';
import { ALL_SUBSCRIBERS_SEGMENT } from './push';
import { closedPortUrl, type PushRecorder, startPushRecorder } from './push-recorder';

let rec: PushRecorder;
let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  rec = await startPushRecorder();
  t = await createTestApp({
    env: { ONESIGNAL_APP_ID: 'app-123', ONESIGNAL_API_KEY: 'rest-key-456', ONESIGNAL_BASE_URL: rec.url },
  });
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(async () => {
  await t.dispose();
  await rec.close();
});
beforeEach(() => {
  rec.requests.length = 0;
  rec.reply({ status: 200, body: '{"id":"notification-1"}' });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  return () => vi.restoreAllMocks();
});

/** `null` sends no token at all. */
const send = (body: unknown, token: string | null = adminToken, app: TestApp = t) =>
  app.call('POST', '/api/auth/send-notification', { body, token: token ?? undefined });

const FIXED = NOTIFICATION_TYPES.filter((type) => type !== 'customMessage');

describe('POST /api/auth/send-notification', () => {
  it.each(FIXED)('sends %s with its fixed Turkish and English texts to one player id', async (type) => {
    const res = await send({ notificationType: type, playerId: ' player-abc ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { notificationType: type, target: 'user', id: 'notification-1', pushed: true, inbox: 0 },
    });
    expect(rec.requests).toHaveLength(1);
    const [req] = rec.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/notifications' });
    expect(req.headers.authorization).toBe('Key rest-key-456');
    expect(req.body).toEqual({
      app_id: 'app-123',
      target_channel: 'push',
      include_subscription_ids: ['player-abc'],
      headings: NOTIFICATION_TEXTS[type as keyof typeof NOTIFICATION_TEXTS].headings,
      contents: NOTIFICATION_TEXTS[type as keyof typeof NOTIFICATION_TEXTS].contents,
      data: { type },
    });
  });

  it("sends a custom message with the admin's title and text in both languages", async () => {
    const res = await send({
      notificationType: 'customMessage',
      playerId: 'p-1',
      title: ' Duyuru ',
      message: 'Yeni kampanya!',
    });
    expect(res.status).toBe(200);
    expect(rec.requests[0].body).toMatchObject({
      include_subscription_ids: ['p-1'],
      headings: { en: 'Duyuru', tr: 'Duyuru' },
      contents: { en: 'Yeni kampanya!', tr: 'Yeni kampanya!' },
      data: { type: 'customMessage' },
    });
  });

  it.each([
    ['no player id at all', { title: 'Herkese', message: 'Merhaba' }],
    ['an empty player id', { playerId: '', title: 'Herkese', message: 'Merhaba' }],
  ])('sends to everyone with the spec’s payload: %s and no target', async (_label, fields) => {
    const res = await send({ notificationType: 'customMessage', ...fields });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ target: 'all', pushed: true, inbox: 1 });
    expect(rec.requests[0].body).toMatchObject({ included_segments: [ALL_SUBSCRIBERS_SEGMENT] });
  });

  it('sends to every subscribed device with target all (no player id needed)', async () => {
    const res = await send({
      notificationType: 'customMessage',
      target: 'all',
      title: 'Herkese',
      message: 'Merhaba',
    });
    expect(res.body.data).toEqual({
      notificationType: 'customMessage',
      target: 'all',
      id: 'notification-1',
      pushed: true,
      inbox: 1,
    });
    expect(rec.requests[0].body).toMatchObject({ included_segments: [ALL_SUBSCRIBERS_SEGMENT] });
    expect(rec.requests[0].body).not.toHaveProperty('include_subscription_ids');
  });

  it('uses the fixed texts for a fixed type even when a title and message come along', async () => {
    await send({ notificationType: 'newTask', target: 'all', title: 'ignored', message: 'ignored' });
    expect(rec.requests[0].body).toMatchObject({ headings: NOTIFICATION_TEXTS.newTask.headings });
  });

  it.each<[string, unknown, string, string, string]>([
    [
      'no type',
      { playerId: 'p' },
      'notification_type_required',
      'notificationType',
      'Please choose a notification type',
    ],
    [
      'an unknown type',
      { notificationType: 'spam', playerId: 'p' },
      'notification_type_required',
      'notificationType',
      'Please choose a notification type',
    ],
    [
      'a custom message without a title',
      { notificationType: 'customMessage', playerId: 'p', message: 'm' },
      'notification_title_required',
      'title',
      'Please enter a notification title',
    ],
    [
      'a custom message with a blank text',
      { notificationType: 'customMessage', playerId: 'p', title: 't', message: ' ' },
      'notification_message_required',
      'message',
      'Please enter a notification message',
    ],
    [
      'a blank player id',
      { notificationType: 'isAccepted', playerId: '  ', target: 'user' },
      'player_id_required',
      'playerId',
      "A user's device id is required to notify one user",
    ],
    [
      'a player id that is not text',
      { notificationType: 'isAccepted', playerId: 42 },
      'validation_error',
      'playerId',
      'This value is invalid',
    ],
    [
      'a player id with spaces inside',
      { notificationType: 'isAccepted', playerId: 'a b' },
      'validation_error',
      'playerId',
      'This value is invalid',
    ],
    [
      'an unknown target',
      { notificationType: 'isAccepted', target: 'everyone' },
      'validation_error',
      'target',
      'This value is invalid',
    ],
    [
      'a title of 101 characters',
      { notificationType: 'customMessage', target: 'all', title: 'x'.repeat(101), message: 'm' },
      'validation_error',
      'title',
      'This value is too long',
    ],
  ])('refuses %s with a 422 and calls nobody', async (_label, body, code, field, message) => {
    const res = await send(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({ code, message, errors: { [field]: message } });
    expect(rec.requests).toEqual([]);
  });

  it.each<[string, () => void, string]>([
    ['a 500', () => rec.reply({ status: 500, body: 'internal' }), 'a 500'],
    [
      'an invalid player',
      () => rec.reply({ status: 200, body: '{"id":"","errors":{"invalid_player_ids":["p"]}}' }),
      '',
    ],
    ['a 401 (wrong key)', () => rec.reply({ status: 401, body: '{"errors":["Access denied"]}' }), ''],
  ])('answers 424 push_failed when the push service gives %s', async (_label, setup) => {
    setup();
    const res = await send({ notificationType: 'isAccepted', playerId: 'p' });
    expect(res.status).toBe(424);
    expect(res.body.error).toEqual({
      code: 'push_failed',
      message: 'The push service refused the notification',
    });
  });

  it('answers 424 push_failed when nothing listens at the push service', async () => {
    const down = await createTestApp({
      env: { ONESIGNAL_APP_ID: 'a', ONESIGNAL_API_KEY: 'k', ONESIGNAL_BASE_URL: await closedPortUrl() },
    });
    try {
      const token = await down.tokenFor(await makeUser(down.deps.db, { role: 'admin' }));
      const res = await send({ notificationType: 'newTask', target: 'all' }, token, down);
      expect([res.status, res.body.error.code]).toEqual([424, 'push_failed']);
    } finally {
      await down.dispose();
    }
  });

  it.each([
    ['no app id', { ONESIGNAL_API_KEY: 'k' }],
    ['no API key', { ONESIGNAL_APP_ID: 'a' }],
    ['nothing', {}],
  ])('answers 409 push_not_configured with %s configured', async (_label, env) => {
    const bare = await createTestApp({ env: { ...env, ONESIGNAL_BASE_URL: rec.url } });
    try {
      const token = await bare.tokenFor(await makeUser(bare.deps.db, { role: 'admin' }));
      const res = await send({ notificationType: 'isAccepted', playerId: 'p' }, token, bare);
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({
        code: 'push_not_configured',
        message: 'Push notifications are not configured',
      });
      expect(rec.requests).toEqual([]);
    } finally {
      await bare.dispose();
    }
  });

  it.each([
    ['a visitor', async () => null, 401, 'unauthorized'],
    ['a user', async () => t.tokenFor(await makeUser(t.deps.db, { one_signal_id: 'p' })), 403, 'forbidden'],
    [
      'a banned admin',
      async () => t.tokenFor(await makeUser(t.deps.db, { role: 'admin', status: 'banned' })),
      403,
      'banned',
    ],
  ])('refuses %s and calls nobody', async (_label, token, status, code) => {
    const res = await send({ notificationType: 'newTask', target: 'all' }, await token());
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(rec.requests).toEqual([]);
  });
});

describe('GET /api/admin/notifications/status', () => {
  it('tells an admin that push is configured, and calls nobody', async () => {
    const res = await t.call('GET', '/api/admin/notifications/status', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ configured: true });
    expect(rec.requests).toEqual([]);
  });

  it('tells an admin when it is not', async () => {
    const bare = await createTestApp();
    try {
      const token = await bare.tokenFor(await makeUser(bare.deps.db, { role: 'admin' }));
      const res = await bare.call('GET', '/api/admin/notifications/status', { token });
      expect(res.body.data).toEqual({ configured: false });
    } finally {
      await bare.dispose();
    }
  });
});
