// The generator of the hostile-input suite: every API route with its auth need and valid
// body shape, and mutations of each that are INVALID by construction. A request may carry a
// fully valid body only when its identity or target id is refused on its own (no token, a
// bad token, a non-admin on an admin route, a task the user already started...); otherwise
// at least one poison (a field of the wrong type or out of range, a missing required field,
// broken JSON framing, a bad Idempotency-Key, a broken image) guarantees a refusal.
import type { RequestSpec } from '../bench/load';
import { type BrokenImage, bombImages, brokenImages, validJpeg, validPng } from './hostile-images';
import { type Identity, multipartBody, type World } from './hostile-world';

export interface HostileRequest extends RequestSpec {
  method: string;
  headers: Record<string, string>;
  /** the endpoint group the counts are kept by */
  group: string;
  /** the route as declared, e.g. `PUT /api/tasks/:id` */
  route: string;
  /** what was done to it */
  label: string;
  who: string;
  /** why it may not change anything */
  refusedBy: 'auth' | 'id' | 'body' | 'read-only';
}

type Rng = () => number;
type Auth = 'none' | 'optional' | 'user' | 'active' | 'admin';
type Body = Record<string, unknown>;

interface IdSets {
  /** targets refused for this identity whatever the body */
  safe: string[];
  /** targets a valid body could change */
  live: string[];
}

interface Route {
  method: string;
  path: string;
  group: string;
  auth: Auth;
  kind: 'none' | 'json' | 'multipart';
  /** a valid, authorised request could change the database or the files */
  mutating: boolean;
  /** the JSON body's content is checked (false: only its framing, as for approve) */
  contentMatters?: boolean;
  /** an empty body (read as {}) is refused */
  emptyInvalid?: boolean;
  money?: boolean;
  ids?: (w: World, who: Identity) => IdSets;
  query?: Record<string, unknown[]>;
  base?: (w: World, n: number) => Body;
  /** invalid values per field: any one of them makes the body invalid */
  fields?: Record<string, unknown[]>;
  required?: string[];
  /** hand-written invalid bodies */
  special?: (w: World) => Body[];
  multipart?: {
    fileField: string;
    fileRequired: boolean;
    fields: (w: World) => Record<string, string>;
    /** invalid values of the text fields */
    poisons: (w: World, who: Identity) => Record<string, string[]>;
    /** text-field values that are live (valid) for this identity; anything else there is a poison */
    liveFor?: (w: World, who: Identity) => Record<string, string[]>;
  };
}

// ---- values ----

/** A JSON literal JSON.stringify cannot write (1e309, -0, NaN): spliced into the text after. */
const RAW = (text: string) => `\u0001RAW:${text}\u0001`;
const RAW_PATTERN = /"\\u0001RAW:([^"\\]*)\\u0001"/g;
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(RAW_PATTERN, (_, t: string) => t);
}

const WRONG_FOR_STRING: unknown[] = [
  42,
  0,
  -1,
  1.5,
  true,
  false,
  [],
  ['x'],
  {},
  { a: 1 },
  RAW('1e309'),
  RAW('-0'),
];
const WRONG_FOR_NUMBER: unknown[] = [
  '10',
  '',
  'ten',
  true,
  [],
  [10],
  {},
  { n: 1 },
  RAW('1e309'),
  RAW('-1e309'),
];
const WRONG_FOR_BOOL: unknown[] = ['true', 'false', 1, 0, 'yes', [], {}, null];

function str(max: number, o: { required?: boolean; nullable?: boolean } = {}): unknown[] {
  const out = [...WRONG_FOR_STRING, 'x'.repeat(max + 1), `${'ü'.repeat(max)}x`];
  if (o.required) out.push('', '   ', '\u200b'.repeat(0), '\t\n');
  if (!o.nullable) out.push(null);
  return out;
}
const email = (required = true) => [
  ...str(254, { required }),
  'not-an-email',
  'a@',
  '@example.com',
  'a@@b.c',
  `${'x'.repeat(250)}@e.io`,
  'admin@faults.test\u0000',
  "' OR 1=1 --@x.io",
];
const money = (positive: boolean) => [
  ...WRONG_FOR_NUMBER,
  null,
  -1,
  -0.01,
  0.001,
  1.005,
  12.345,
  RAW('-0'),
  RAW('NaN'),
  RAW('Infinity'),
  RAW('9007199254740993'),
  1e300,
  ...(positive ? [0] : []),
];
const enumOf = (extra: unknown[] = []) => [
  'nope',
  '',
  'ACTIVE',
  'active ',
  '__proto__',
  'constructor',
  1,
  true,
  [],
  {},
  ...extra,
];

/** Strings that have broken parsers, SQL and paths elsewhere: used in ids, queries and extra fields. */
const NASTY = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1 UNION SELECT * FROM users',
  '../../secret.key',
  '..\\..\\secret.key',
  '/etc/passwd',
  '%00',
  '\u0000',
  '\u202e\u0644\u0627',
  '\ud83d\ude00'.repeat(50),
  '\ud800',
  'ﬀ\u0301\u0301\u0301',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '0x10',
  ' ',
  '*',
  '%',
  '%zz',
  '%E0%A4%A',
];

const GARBAGE_IDS = [
  'x',
  '0',
  '-1',
  '1e309',
  'null',
  'undefined',
  'NaN',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '%27%20OR%201%3D1%20--',
  "'%20OR%20'1'='1",
  '1;DROP%20TABLE%20tasks',
  '..%2F..%2Fsecret.key',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fsecret.key',
  '%00',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '%',
  '%zz',
  '%C0%AE%C0%AE',
  '0000000000000000000000000000000g',
  'ffffffffffffffffffffffffffffffff',
  '00000000000000000000000000000000',
  encodeURIComponent('{"$gt":""}'),
  'a'.repeat(300),
  'a'.repeat(5000),
  '*',
  '.',
  '..',
  '~',
  '%20',
];

// ---- routes ----

const q = (...extra: unknown[]) => ['', '0', '-1', '1e309', 'abc', '1.5', '999999999999', ...extra];
const pageQuery = { page: q('0x10', '1e3'), limit: q('0', '101', '1000', '-5') };
const idsAll = (w: World) => Object.values(w.tasks);
const isUser = (who: Identity, key: 'user' | 'other') =>
  who.kind === 'user' &&
  !who.suspended &&
  (key === 'user' ? /^user( |$)/.test(who.name) : who.name === 'other user');

const taskFields = (create: boolean): Record<string, unknown[]> => ({
  title: str(200, { required: true }),
  description: str(10_000, { required: true }),
  reward: money(true),
  taskLink: [
    'ftp://x.io',
    'javascript:alert(1)',
    'http://',
    'http:// x',
    42,
    true,
    {},
    `https://${'x'.repeat(2000)}`,
  ],
  maxCompletions: [...WRONG_FOR_NUMBER, null, 0, -1, 1.5, 1_000_001, 1e12],
  category: enumOf(create ? [null] : [null]),
  difficulty: enumOf([null]),
  status: enumOf([null, 'deleted']),
  requiredProof: enumOf([null, 'photo']),
  deadline: ['tomorrow', '2026-02-30', '1999-06-01', '10000-01-01', '2026-13-01', 20_991_231, true, {}, []],
  automaticComments: [42, true, {}, [1], [{}], [null], ['x'.repeat(1001)], Array(5001).fill('c')],
  steps: [42, true, {}, [1], [null], ['x'.repeat(1001)], Array(101).fill('s')],
  requirements: [42, false, { a: 1 }, [[]], Array(101).fill('r')],
  estimatedTime: [-1, 1.5, 'abc', 100_001, true, [], {}],
  isFeatured: WRONG_FOR_BOOL,
});

function routes(): Route[] {
  const tasksWrite = taskFields(false);
  return [
    // auth
    {
      method: 'POST',
      path: '/api/auth/register',
      group: 'auth',
      auth: 'none',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      base: (_w, n) => ({ name: 'Mallory', email: `mallory${n}@hostile.test`, password: 'mallory-pass' }),
      fields: {
        name: str(100, { required: true }),
        email: email(),
        password: [...str(200, { required: true }), '12345', 'abcde'],
        confirmPassword: ['something-else', 42, true, [], 'x'.repeat(201)],
        device_id: [42, true, {}, [], 'x'.repeat(201)],
        oneSignalId: [42, false, { id: 1 }, ['a'], 'x'.repeat(201)],
      },
      required: ['name', 'email', 'password'],
      special: (w) => [{ name: 'Dup', email: w.emails.user.toUpperCase(), password: 'mallory-pass' }],
    },
    {
      method: 'POST',
      path: '/api/auth/login',
      group: 'auth',
      auth: 'none',
      kind: 'json',
      // a wrong password never signs in (and never touches last_active)
      mutating: false,
      contentMatters: true,
      base: (w) => ({ email: w.emails.user, password: 'wrong-password' }),
      fields: {
        email: email(),
        password: [...str(200, { required: true }), '12345'],
        rememberMe: ['yes', 1, null, [], {}],
        device_id: [42, {}, 'x'.repeat(201)],
        oneSignalId: [true, [], 'x'.repeat(201)],
      },
      required: ['email', 'password'],
    },
    {
      method: 'POST',
      path: '/api/auth/send-notification',
      group: 'auth',
      auth: 'admin',
      kind: 'json',
      // a custom message lands in the inbox (and the audit log) even with push unconfigured
      mutating: true,
      contentMatters: true,
      base: () => ({ notificationType: 'customMessage', title: 'Hi', message: 'Hello', target: 'all' }),
      fields: {
        notificationType: enumOf([null, 'IsAccepted']),
        title: ['', '   ', 42, {}, 'x'.repeat(101)],
        message: ['', 42, [], 'x'.repeat(1001)],
        target: ['everyone', 42, {}, 'ALL'],
        playerId: [42, {}, []],
      },
      special: () => [
        { notificationType: 'isAccepted' },
        { notificationType: 'isAccepted', playerId: '' },
        { notificationType: 'isAccepted', playerId: 'has space' },
        { notificationType: 'isAccepted', playerId: 'p'.repeat(201) },
        { notificationType: 'newTask', playerId: '\u00e7\u00fc' },
      ],
    },
    // first-run setup: the world has an admin, so the link is closed for everyone
    { method: 'GET', path: '/api/setup', group: 'auth', auth: 'none', kind: 'none', mutating: false },
    {
      method: 'POST',
      path: '/api/setup',
      group: 'auth',
      auth: 'none',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      base: (_w, n) => ({ name: 'Mallory', email: `setup${n}@hostile.test`, password: 'mallory-pass' }),
      fields: {
        name: str(100, { required: true }),
        email: email(),
        password: [...str(200, { required: true }), '12345'],
        confirmPassword: ['something-else', 42, [], 'x'.repeat(201)],
      },
      required: ['name', 'email', 'password'],
    },
    // users
    { method: 'GET', path: '/api/users/me', group: 'users', auth: 'user', kind: 'none', mutating: false },
    {
      method: 'PUT',
      path: '/api/users/me',
      group: 'users',
      auth: 'user',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      base: () => ({ name: 'Changed Name', phone: '+90 555 111 22 33', address: 'Street 1', bio: 'Hello' }),
      fields: {
        name: str(100, { required: true }),
        password: ['12345', 'a', 'x'.repeat(201), 42, true, {}, []],
        phone: ['abc', '555-CALL-NOW', 'x'.repeat(31), '1'.repeat(31), 42, {}, '<script>'],
        address: ['x'.repeat(201), 42, [], true],
        bio: ['x'.repeat(501), 42, {}, false],
      },
      required: ['name'],
    },
    {
      method: 'PUT',
      path: '/api/users/me',
      group: 'users',
      auth: 'user',
      kind: 'multipart',
      mutating: true,
      multipart: {
        fileField: 'profileImage',
        fileRequired: false,
        fields: () => ({ name: 'Changed Name', bio: 'Hello' }),
        poisons: () => ({
          name: ['', '   ', 'x'.repeat(101)],
          phone: ['abc', 'x'.repeat(31)],
          bio: ['x'.repeat(501)],
          password: ['12345'],
        }),
      },
    },
    {
      method: 'GET',
      path: '/api/users/me/completed-tasks',
      group: 'users',
      auth: 'user',
      kind: 'none',
      mutating: false,
    },
    // tasks
    {
      method: 'GET',
      path: '/api/tasks',
      group: 'tasks',
      auth: 'optional',
      kind: 'none',
      mutating: false,
      query: {
        q: ['x'.repeat(201), ...NASTY],
        category: enumOf().map(String),
        difficulty: ['impossible', 'EASY', ''],
        rewardRange: ['0-1000', '50-', '-1', '10-20 '],
        sort: ['random', 'newest; DROP TABLE tasks', ''],
        status: ['deleted', 'ACTIVE', 'all'],
        all: ['yes', '2', 'TRUE', ''],
        ...pageQuery,
      },
    },
    { method: 'GET', path: '/api/tasks/user', group: 'tasks', auth: 'user', kind: 'none', mutating: false },
    {
      method: 'GET',
      path: '/api/tasks/:id',
      group: 'tasks',
      auth: 'optional',
      kind: 'none',
      mutating: false,
      ids: (w) => ({ safe: idsAll(w), live: [] }),
    },
    {
      method: 'POST',
      path: '/api/tasks',
      group: 'tasks',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      base: (_w, n) => ({
        title: `Hostile ${n}`,
        description: 'A task that must never be created',
        reward: 5,
        maxCompletions: 10,
        category: 'survey',
        difficulty: 'easy',
        requiredProof: 'screenshot',
        deadline: '2099-01-01',
        automaticComments: ['a', 'b'],
        steps: ['one'],
        estimatedTime: 5,
      }),
      fields: taskFields(true),
      required: ['title', 'description', 'reward', 'maxCompletions'],
    },
    {
      method: 'PUT',
      path: '/api/tasks/:id',
      group: 'tasks',
      auth: 'user',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      // an admin's PUT with {} is a valid (empty) change; no user owns a task here
      ids: (w, who) => (who.kind === 'admin' ? { safe: [], live: idsAll(w) } : { safe: idsAll(w), live: [] }),
      base: () => ({ title: 'Renamed', reward: 7, isFeatured: false, usedComments: ['x'] }),
      fields: {
        ...tasksWrite,
        taskLink: tasksWrite.taskLink,
        deadline: ['tomorrow', '2026-02-31', '1999-01-01', 12, true, {}],
        estimatedTime: [-1, 2.5, 'abc', 100_001, true, [], {}],
      },
    },
    {
      method: 'DELETE',
      path: '/api/tasks/:id',
      group: 'tasks',
      auth: 'admin',
      kind: 'none',
      mutating: true,
      ids: (w) => ({ safe: [], live: idsAll(w) }),
    },
    {
      method: 'PUT',
      path: '/api/tasks/:id/feature',
      group: 'tasks',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      ids: (w) => ({ safe: [], live: idsAll(w) }),
      base: () => ({ isFeatured: true }),
      fields: { isFeatured: WRONG_FOR_BOOL },
      required: ['isFeatured'],
    },
    {
      method: 'POST',
      path: '/api/tasks/:id/start',
      group: 'tasks',
      auth: 'active',
      kind: 'none',
      mutating: true,
      ids: (w, who) => {
        const t = w.tasks;
        if (isUser(who, 'user') || who.name === 'user with admin claims')
          return { safe: [t.started, t.inProgress, t.inactive], live: [t.open] };
        if (isUser(who, 'other')) return { safe: [t.started, t.inactive], live: [t.inProgress, t.open] };
        return { safe: [t.inactive], live: [t.started, t.inProgress, t.open] };
      },
    },
    {
      method: 'POST',
      path: '/api/tasks/:id/restart',
      group: 'tasks',
      auth: 'active',
      kind: 'none',
      mutating: true,
      // nobody has a rejected submission: no task can be restarted
      ids: (w) => ({ safe: idsAll(w), live: [] }),
    },
    // submissions
    {
      method: 'POST',
      path: '/api/submissions',
      group: 'submissions',
      auth: 'active',
      kind: 'multipart',
      mutating: true,
      multipart: {
        fileField: 'proofImage',
        fileRequired: true,
        fields: (w) => ({ task: w.tasks.inProgress, description: 'my proof' }),
        poisons: (w) => ({
          task: [
            '',
            '   ',
            'x'.repeat(201),
            w.tasks.started,
            w.tasks.open,
            w.tasks.inactive,
            w.submissions.pending,
            ...NASTY,
          ],
          description: ['x'.repeat(2001)],
        }),
        liveFor: (w, who) =>
          isUser(who, 'user') || who.name === 'user with admin claims'
            ? { task: [w.tasks.inProgress] }
            : { task: [] },
      },
    },
    {
      method: 'GET',
      path: '/api/submissions/user',
      group: 'submissions',
      auth: 'user',
      kind: 'none',
      mutating: false,
      query: { status: ['done', 'PENDING', ...NASTY.slice(0, 8)] },
    },
    {
      method: 'GET',
      path: '/api/submissions',
      group: 'submissions',
      auth: 'admin',
      kind: 'none',
      mutating: false,
      query: { status: ['done', 'APPROVED'], q: ['x'.repeat(201), ...NASTY], ...pageQuery },
    },
    {
      method: 'PUT',
      path: '/api/submissions/:id/review',
      group: 'submissions',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      money: true,
      ids: (w) => ({ safe: [w.submissions.approved], live: [w.submissions.pending] }),
      base: () => ({ status: 'approved', feedback: 'ok' }),
      fields: {
        status: enumOf([null, 'pending', 'approve', 'REJECTED']),
        feedback: ['', '   ', 42, null, [], {}, true, 'x'.repeat(2001)],
      },
      required: ['status', 'feedback'],
      special: () => [
        { status: 'rejected', feedback: 'no' },
        { status: 'rejected', feedback: 'no', rejectionReason: 'because' },
        { status: 'rejected', feedback: 'no', rejectionReason: 42 },
        { status: 'rejected', feedback: 'no', rejectionReason: ['no_share'] },
        { status: 'rejected', feedback: 'no', rejectionReason: '__proto__' },
      ],
    },
    // settings
    { method: 'GET', path: '/api/settings', group: 'settings', auth: 'none', kind: 'none', mutating: false },
    {
      method: 'PUT',
      path: '/api/settings',
      group: 'settings',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      base: () => ({ site: { name: 'Changed' }, payment: { minimumPayout: 25 } }),
      fields: {
        site: ['text', 42, [], true, { name: '' }, { name: 42 }, { name: 'x'.repeat(101) }, { unknown: 1 }],
        contact: ['x', { email: 'bad' }, { phone: 'call me' }, { address: 'x'.repeat(301) }, { fax: '1' }],
        socialMedia: [
          { facebook: 'javascript:alert(1)' },
          { twitter: 'ftp://x' },
          { tiktok: 'https://t.io' },
          [],
        ],
        payment: [
          { minimumPayout: -1 },
          { minimumPayout: '20' },
          { minimumPayout: 0.001 },
          { minimumPayout: 1_000_001 },
          { minimumPayout: null },
          { minimumPayout: RAW('1e309') },
          { methods: [] },
          { methods: ['bitcoin'] },
          { methods: 'papara' },
          { methods: Array(11).fill('papara') },
          { currency: 'USD' },
        ],
        extraSection: [{}, 1, 'x'],
      },
      special: () => [
        { site: { logo: 'https://evil.example/logo.png' } },
        { site: { logo: '/api/files/images/../../secret.key' } },
        { site: { favicon: '/api/files/images/0123456789abcdef0123456789abcdef.gif' } },
        { site: { description: 'plain text' } },
        { site: { description: { de: 'Hallo' } } },
      ],
    },
    ...(['logo', 'favicon'] as const).map(
      (field): Route => ({
        method: 'PUT',
        path: `/api/settings/${field}`,
        group: 'settings',
        auth: 'admin',
        kind: 'multipart',
        mutating: true,
        multipart: { fileField: field, fileRequired: true, fields: () => ({}), poisons: () => ({}) },
      }),
    ),
    // files
    {
      method: 'GET',
      path: '/api/files/proofs/:id',
      group: 'files',
      auth: 'none',
      kind: 'none',
      mutating: false,
      ids: (w) => ({ safe: [w.proofFile, w.imageFile], live: [] }),
      query: {
        exp: [
          '',
          '0',
          '1',
          '99999999999999999999',
          '-1',
          '1e12',
          'abc',
          String(Math.floor(Date.now() / 1000) + 600),
        ],
        sig: ['', 'a', 'x'.repeat(43), '%00', 'AAAA', ...NASTY.slice(0, 5)],
      },
    },
    {
      method: 'GET',
      path: '/api/files/images/:id',
      group: 'files',
      auth: 'none',
      kind: 'none',
      mutating: false,
      ids: (w) => ({
        safe: [w.imageFile, w.proofFile, `${w.imageFile}.png`, w.imageFile.toUpperCase()],
        live: [],
      }),
    },
    // withdrawals
    {
      method: 'POST',
      path: '/api/withdraws',
      group: 'withdraws',
      auth: 'active',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      money: true,
      base: () => ({
        amount: 25,
        paymentMethod: 'papara',
        accountDetails: { fullName: 'Ali Veli', accountNumber: '1234567890' },
      }),
      fields: {
        amount: [...money(true), 10, 19.99, 1e9, 100_000],
        paymentMethod: enumOf([null, 'bitcoin', 'PAPARA']),
        accountDetails: [
          null,
          'Ali Veli 1234567890',
          [],
          42,
          {},
          { fullName: '', accountNumber: '1234567890' },
          { fullName: 'Ali', accountNumber: '' },
          { fullName: 42, accountNumber: '1234567890' },
          { fullName: 'Ali', accountNumber: 1234567890 },
          { fullName: 'x'.repeat(101), accountNumber: '1234567890' },
          { fullName: 'Ali', accountNumber: '123' },
          { fullName: 'Ali', accountNumber: '12345678901' },
          { fullName: 'Ali', accountNumber: '1'.repeat(65) },
          { fullName: 'Ali', accountNumber: 'TR000000000000000000000000' },
          { fullName: '   ', accountNumber: '1234567890' },
        ],
      },
      required: ['amount', 'paymentMethod', 'accountDetails'],
      special: () => [
        {
          amount: 25,
          paymentMethod: 'iban',
          accountDetails: { fullName: 'Ali', accountNumber: '1234567890' },
        },
        {
          amount: 25,
          paymentMethod: 'iban',
          accountDetails: { fullName: 'Ali', accountNumber: 'TR330006100519786457841327' },
        },
      ],
    },
    {
      method: 'GET',
      path: '/api/withdraws',
      group: 'withdraws',
      auth: 'user',
      kind: 'none',
      mutating: false,
    },
    // admin
    {
      method: 'GET',
      path: '/api/admin/withdraws',
      group: 'admin/withdraws',
      auth: 'admin',
      kind: 'none',
      mutating: false,
      query: {
        status: ['done', 'all ', ...NASTY.slice(0, 6)],
        from: ['2026-02-30', 'yesterday', '2026-1-1', '99999-01-01'],
        to: ['2026-13-01', '0000-00-00'],
        q: ['x'.repeat(101), ...NASTY],
        userId: ['x'.repeat(201), ...NASTY.slice(0, 6)],
        ...pageQuery,
      },
    },
    {
      method: 'PUT',
      path: '/api/admin/withdraws/:id/approve',
      group: 'admin/withdraws',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      // the body is read but not used: only its framing, the id, auth or the key can refuse it
      contentMatters: false,
      money: true,
      ids: (w) => ({ safe: [w.withdrawals.approved, w.withdrawals.rejected], live: [w.withdrawals.pending] }),
      base: () => ({ note: 'approve' }),
    },
    {
      method: 'PUT',
      path: '/api/admin/withdraws/:id/reject',
      group: 'admin/withdraws',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      money: true,
      ids: (w) => ({ safe: [w.withdrawals.approved, w.withdrawals.rejected], live: [w.withdrawals.pending] }),
      base: () => ({ reason: 'not allowed' }),
      fields: { reason: ['', '   ', 42, null, [], {}, true, 'x'.repeat(501)] },
      required: ['reason'],
    },
    {
      method: 'PUT',
      path: '/api/admin/submissions/review',
      group: 'admin/bulk',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      money: true,
      base: (w) => ({ ids: [w.submissions.pending], status: 'approved', feedback: 'ok' }),
      fields: {
        ids: [
          [],
          'x',
          42,
          null,
          {},
          [42],
          [''],
          ['x'.repeat(65)],
          Array.from({ length: 501 }, (_, i) => `i${i}`),
        ],
        status: ['done', '', 42, null, [], {}],
        feedback: ['', '   ', 42, null, [], {}, 'x'.repeat(2001)],
      },
      required: ['ids', 'status', 'feedback'],
    },
    {
      method: 'PUT',
      path: '/api/admin/withdraws/review',
      group: 'admin/bulk',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      money: true,
      base: (w) => ({ ids: [w.withdrawals.pending], status: 'rejected', reason: 'not allowed' }),
      fields: {
        ids: [[], 'x', 42, null, {}, [42], [''], Array.from({ length: 501 }, (_, i) => `i${i}`)],
        status: ['done', '', 42, null, [], {}],
        reason: ['', '   ', 42, null, [], {}, true, 'x'.repeat(501)],
      },
      required: ['ids', 'status', 'reason'],
    },
    ...(['submissions', 'withdraws', 'users'] as const).map(
      (kind): Route => ({
        method: 'GET',
        path: `/api/admin/${kind}/export.csv`,
        group: 'admin/exports',
        auth: 'admin',
        kind: 'none',
        mutating: false,
        query: {
          format: ['csv', 'RFC4180', 'excel', ...NASTY.slice(0, 6)],
          lang: ['de', 'TR', ...NASTY.slice(0, 6)],
          status: ['done', ...NASTY.slice(0, 6)],
          q: ['x'.repeat(201), ...NASTY],
        },
      }),
    ),
    {
      method: 'GET',
      path: '/api/admin/stats',
      group: 'admin/stats',
      auth: 'admin',
      kind: 'none',
      mutating: false,
    },
    {
      method: 'GET',
      path: '/api/admin/stats/today',
      group: 'admin/stats',
      auth: 'admin',
      kind: 'none',
      mutating: false,
    },
    {
      method: 'GET',
      path: '/api/admin/users',
      group: 'admin/users',
      auth: 'admin',
      kind: 'none',
      mutating: false,
      query: {
        q: ['x'.repeat(201), ...NASTY],
        status: ['deleted', 'ADMIN', ...NASTY.slice(0, 4)],
        ...pageQuery,
      },
    },
    {
      method: 'GET',
      path: '/api/admin/users/:id',
      group: 'admin/users',
      auth: 'admin',
      kind: 'none',
      mutating: false,
      ids: (w) => ({ safe: Object.values(w.users), live: [] }),
    },
    {
      method: 'PUT',
      path: '/api/admin/users/:id',
      group: 'admin/users',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      ids: (w) => ({ safe: [], live: [w.users.other] }),
      base: (w) => ({
        name: 'Other User',
        email: w.emails.other,
        balance: 40,
        role: 'user',
        status: 'active',
      }),
      fields: {
        name: ['', '   ', 42, null, [], {}, 'x'.repeat(101)],
        email: ['', 'bad', 42, null, 'a@', `${'x'.repeat(250)}@e.io`],
        // null is "unchanged" for the balance: not a poison here
        balance: money(false).filter((v) => v !== null),
        role: enumOf(['superadmin', 'Admin']),
        status: enumOf(['deleted', 'Banned']),
        banReason: [42, {}, [], true, 'x'.repeat(501)],
        password: ['12345', 42, {}, true, 'x'.repeat(201)],
      },
      required: ['name', 'email'],
      special: (w) => [
        { name: 'Other User', email: w.emails.other, status: 'banned' },
        { name: 'Other User', email: w.emails.other, status: 'banned', banReason: '   ' },
        { name: 'Other User', email: w.emails.user },
        { name: 'Other User', email: 'admin@faults.test' },
      ],
    },
    {
      // the admin's own record: demoting or banning the last admin is refused
      method: 'PUT',
      path: '/api/admin/users/:id',
      group: 'admin/users',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      ids: (w) => ({ safe: [], live: [w.users.admin] }),
      base: () => ({ name: 'Admin', email: 'admin@faults.test' }),
      special: () => [
        { name: 'Admin', email: 'admin@faults.test', role: 'user' },
        { name: 'Admin', email: 'admin@faults.test', status: 'banned', banReason: 'self' },
      ],
    },
    {
      method: 'DELETE',
      path: '/api/admin/users/:id',
      group: 'admin/users',
      auth: 'admin',
      kind: 'none',
      mutating: true,
      ids: (w) => ({ safe: [w.users.admin], live: [w.users.user, w.users.other, w.users.suspended] }),
    },
    ...(['submissions', 'withdrawals'] as const).map(
      (sub): Route => ({
        method: 'GET',
        path: `/api/admin/users/:id/${sub}`,
        group: 'admin/users',
        auth: 'admin',
        kind: 'none',
        mutating: false,
        ids: (w) => ({ safe: Object.values(w.users), live: [] }),
        query: pageQuery,
      }),
    ),
    {
      method: 'GET',
      path: '/api/admin/submissions',
      group: 'admin/submissions',
      auth: 'admin',
      kind: 'none',
      mutating: false,
      query: { status: ['done'], q: ['x'.repeat(201), ...NASTY], ...pageQuery },
    },
    {
      method: 'GET',
      path: '/api/admin/submissions/:id',
      group: 'admin/submissions',
      auth: 'admin',
      kind: 'none',
      mutating: false,
      ids: (w) => ({ safe: [w.submissions.pending, w.submissions.approved], live: [] }),
    },
    {
      method: 'GET',
      path: '/api/admin/users/:id/linked',
      group: 'admin/users',
      auth: 'admin',
      kind: 'none',
      mutating: false,
      ids: (w) => ({ safe: Object.values(w.users), live: [] }),
    },
    {
      // dismissing a fraud flag: no flag has this id, so every request is refused (404 or earlier)
      method: 'PUT',
      path: '/api/admin/flags/:id/dismiss',
      group: 'admin/flags',
      auth: 'admin',
      kind: 'json',
      mutating: true,
      contentMatters: true,
      emptyInvalid: true,
      ids: () => ({ safe: ['0123456789abcdef01234567'], live: [] }),
      base: () => ({ note: 'looked at it' }),
      fields: { note: ['', '   ', 42, null, [], {}, true, 'x'.repeat(501)] },
      required: ['note'],
    },
    {
      method: 'GET',
      path: '/api/admin/submissions/recent',
      group: 'admin/submissions',
      auth: 'admin',
      kind: 'none',
      mutating: false,
      query: { limit: q('51', '50.5') },
    },
  ];
}

// ---- the pieces of a request ----

function authRefused(route: Route, who: Identity): boolean {
  if (who.kind === 'bad') return route.auth !== 'none';
  if (route.auth === 'none' || route.auth === 'optional') return false;
  if (who.kind === 'anon') return true;
  if (route.auth === 'admin') return who.kind !== 'admin';
  if (route.auth === 'active') return who.suspended === true;
  return false;
}

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];

/** Extra keys no route knows: prototype pollution, look-alikes of privileged fields, noise. */
const EXTRA_KEYS: [string, unknown][] = [
  ['__proto__', { role: 'admin', isAdmin: true, status: 'active' }],
  ['constructor', { prototype: { role: 'admin' } }],
  ['prototype', { polluted: true }],
  ['hasOwnProperty', 1],
  ['toString', 'x'],
  ['valueOf', 42],
  ['isAdmin', true],
  ['_id', 'ffffffffffffffffffffffffffffffff'],
  ['createdAt', '1970-01-01T00:00:00Z'],
  ['password_hash', 'x'],
  ['deleted_at', null],
  ['$where', '1 == 1'],
  ['\u0000', 'nul key'],
  ['', 'empty key'],
  ['\u202eeman', 'rtl'],
  ['a'.repeat(10_000), 'long key'],
  ['nested', { a: { b: { c: { d: { e: [1, [2, [3]]] } } } } }],
];

function withExtras(rng: Rng, body: Body, known: Set<string>): { body: Body; label: string } {
  const out: Body = { ...body };
  const labels: string[] = [];
  const n = 1 + Math.floor(rng() * 3);
  for (let i = 0; i < n; i++) {
    const [k, v] = pick(rng, EXTRA_KEYS);
    if (known.has(k)) continue;
    // `{ __proto__: ... }` in an object literal sets the prototype: define the own key instead
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    labels.push(k.length > 20 ? `${k.slice(0, 8)}…` : JSON.stringify(k));
  }
  return { body: out, label: labels.length ? `+extra ${labels.join(',')}` : '' };
}

interface Poisoned {
  body: string;
  contentType?: string;
  extraHeaders?: Record<string, string>;
  label: string;
}

const BAD_JSON = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}}',
  '{"a" 1}',
  'nul',
  '[',
  '\u0000',
  '{"a":"\u0000',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":-}',
  '{"a":01}',
  '{"a":1e}',
  '{"a":"\\x41"}',
  '{"a":"\\ud800"',
  '{a:1}',
  '// comment\n{}',
  '{"a":1}/*x*/',
  '\ufeff\ufeff{}',
  '<?xml version="1.0"?><a/>',
  'a=1&b=2',
];
const NOT_OBJECTS = ['[]', '[{}]', 'null', '42', '-0', '"str"', 'true', 'false', '1e309', '[[[[[[]]]]]]'];
const WRONG_TYPES = [
  'text/plain',
  'text/json',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/jsonp',
  'application/javascript',
  'image/png',
  'application/octet-stream',
  '*/*',
  'json',
  'application/ json',
  'multipart/form-data; boundary=x',
  'multipart/mixed; boundary=x',
  'application/x-json-stream',
];

function framingPoisons(route: Route, n: number, rng: Rng, validText: string): Poisoned[] {
  const deep = 5_000 + Math.floor(rng() * 100_000);
  const out: Poisoned[] = [
    { body: pick(rng, BAD_JSON), label: 'invalid JSON' },
    { body: pick(rng, NOT_OBJECTS), label: 'JSON not an object' },
    { body: validText, contentType: pick(rng, WRONG_TYPES), label: 'wrong content type' },
    { body: `${'['.repeat(deep)}${']'.repeat(deep)}`, label: `array nested ${deep} deep` },
    { body: `${'{"a":'.repeat(deep)}1${'}'.repeat(deep - 1)}`, label: `unclosed object nested ${deep} deep` },
    {
      body: `{"pad":"${'x'.repeat(256 * 1024 + Math.floor(rng() * 200_000))}"}`,
      label: 'over the 256 KB JSON limit',
    },
    {
      body: `[${Array.from({ length: 40_000 }, () => '{"a":1}').join(',')}]`,
      label: 'a huge array',
    },
    { body: validText.slice(0, Math.max(1, Math.floor(validText.length * rng()))), label: 'truncated JSON' },
    { body: Buffer.from(validText, 'utf8').toString('utf16le'), label: 'utf-16 bytes' },
  ];
  if (route.emptyInvalid && route.contentMatters) {
    out.push(
      { body: '', label: 'empty body' },
      { body: '   \n', contentType: '', label: 'blank body, no type' },
    );
    out.push({ body: '{}', label: 'empty object' });
  }
  if (n % 7 === 0)
    out.push({
      body: validText,
      contentType: 'application/json',
      extraHeaders: { 'Content-Encoding': 'gzip' },
      label: 'claims gzip',
    });
  return out;
}

function fieldPoison(route: Route, w: World, n: number, rng: Rng): { body: Body; label: string } | null {
  const base = route.base?.(w, n) ?? {};
  const options: (() => { body: Body; label: string })[] = [];
  const fields = route.fields ?? {};
  const names = Object.keys(fields);
  if (names.length) {
    options.push(() => {
      const f = pick(rng, names);
      const v = pick(rng, fields[f]);
      return { body: { ...base, [f]: v }, label: `${f}=${short(v)}` };
    });
    options.push(() => {
      // two wrong fields at once
      const a = pick(rng, names);
      const b = pick(rng, names);
      return {
        body: { ...base, [a]: pick(rng, fields[a]), [b]: pick(rng, fields[b]) },
        label: `${a}+${b} wrong`,
      };
    });
  }
  if (route.required?.length) {
    options.push(() => {
      const f = pick(rng, route.required ?? []);
      const { [f]: _, ...rest } = base;
      return { body: rest, label: `missing ${f}` };
    });
  }
  const special = route.special?.(w) ?? [];
  if (special.length) options.push(() => ({ body: pick(rng, special), label: 'hand-written invalid body' }));
  if (!options.length) return null;
  return pick(rng, options)();
}

function short(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : (toJson(v) ?? String(v));
  return s.length > 24 ? `${s.slice(0, 20)}…(${s.length})` : s;
}

/** `{"k": <valid>, ..., "k": <invalid>}`: the last duplicate wins in JSON.parse. */
function duplicateKey(text: string, field: string, valid: unknown): string {
  return text.replace(/^\{/, `{${JSON.stringify(field)}:${toJson(valid)},`);
}

// ---- multipart ----

const BOUNDARY = '----hostileBoundary9x8y7z';

interface MultipartPlan {
  body: Buffer;
  contentType: string;
  label: string;
  invalid: boolean;
}

function multipartPlan(
  route: Route,
  w: World,
  who: Identity,
  rng: Rng,
  bombsLeft: { n: number },
): MultipartPlan {
  const mp = route.multipart;
  if (!mp) throw new Error('not multipart');
  const broken = brokenImages();
  const nonEmpty = broken.filter((b) => b.bytes.length > 0);
  const good = () =>
    rng() < 0.5 ? validPng(4 + Math.floor(rng() * 8), 4, Math.floor(rng() * 100)) : validJpeg(6, 6);
  const labels: string[] = [];
  let invalid = false;

  // the text fields
  const fields: Record<string, string> = { ...mp.fields(w) };
  const poisons = mp.poisons(w, who);
  const live = mp.liveFor?.(w, who);
  const r = rng();
  if (r < 0.35 && Object.keys(poisons).length) {
    const f = pick(rng, Object.keys(poisons));
    fields[f] = pick(rng, poisons[f]);
    labels.push(`field ${f}=${short(fields[f])}`);
    invalid = true;
  } else if (r < 0.42) {
    fields.junk = 'x'.repeat(16 * 1024 + 1);
    labels.push('a 16 KB+ text field');
    invalid = true;
  } else if (r < 0.48) {
    for (let i = 0; i < 25; i++) fields[`f${i}`] = String(i);
    labels.push('25 text fields');
  } else if (r < 0.55) {
    for (const k of ['__proto__', 'constructor', 'toString'])
      Object.defineProperty(fields, k, { value: 'x', enumerable: true, writable: true, configurable: true });
    labels.push('prototype field names');
  }
  if (live) {
    for (const [f, values] of Object.entries(live)) if (!values.includes(fields[f] ?? '')) invalid = true;
  }

  // the file part(s)
  type Part = { name: string; value?: string | Buffer; filename?: string; type?: string };
  const fileParts: Part[] = [];
  const asPart = (img: BrokenImage, name = mp.fileField): Part => ({
    name,
    value: img.bytes,
    filename: img.filename,
    type: img.type,
  });
  const f = rng();
  if (f < 0.45) {
    const img = pick(rng, broken);
    fileParts.push(asPart(img));
    labels.push(`file: ${img.label}`);
    // an empty file part counts as no file: refused only where a file is required
    if (img.bytes.length > 0 || mp.fileRequired) invalid = true;
  } else if (f < 0.5 && bombsLeft.n > 0) {
    bombsLeft.n--;
    const img = pick(rng, bombImages());
    fileParts.push(asPart(img));
    labels.push(`file: ${img.label}`);
    // one whose picture decodes is an image like another (its excess is dropped by the re-encode)
    if (!img.decodable) invalid = true;
  } else if (f < 0.58) {
    labels.push('no file part');
    if (mp.fileRequired) invalid = true;
  } else if (f < 0.64) {
    fileParts.push({
      name: pick(rng, ['file', 'image', 'proof', `${mp.fileField} `, mp.fileField.toUpperCase()]),
      value: good(),
      filename: 'a.png',
      type: 'image/png',
    });
    labels.push('a valid image under the wrong field name');
    if (mp.fileRequired) invalid = true;
  } else if (f < 0.7) {
    const img = pick(rng, nonEmpty);
    fileParts.push(asPart(img), { name: mp.fileField, value: good(), filename: 'b.png', type: 'image/png' });
    labels.push(`two files, the first broken (${img.label})`);
    invalid = true;
  } else if (f < 0.74) {
    for (let i = 0; i < 6; i++) fileParts.push(asPart(pick(rng, nonEmpty)));
    labels.push('six broken files');
    invalid = true;
  } else if (f < 0.77) {
    const big = Buffer.alloc(5_242_880 + 1 + Math.floor(rng() * 1000));
    validPng(2, 2).copy(big);
    fileParts.push({ name: mp.fileField, value: big, filename: 'big.png', type: 'image/png' });
    labels.push('a file over 5 MB');
    invalid = true;
  } else if (f < 0.8) {
    fileParts.push({ name: mp.fileField, value: good() });
    labels.push('image sent without a filename');
    if (mp.fileRequired) invalid = true;
  } else {
    const types = ['text/plain', 'application/x-msdownload', 'image/gif', 'image/svg+xml', ''];
    fileParts.push({
      name: mp.fileField,
      value: good(),
      filename: pick(rng, ['a.exe', 'a.png', '../../a.png', 'a\u0000.png', '']),
      type: pick(rng, types),
    });
    labels.push('a valid image with a lying name or type');
  }

  const parts: Part[] = [...Object.entries(fields).map(([name, value]) => ({ name, value })), ...fileParts];
  let body = multipartBody(BOUNDARY, parts);
  let contentType = `multipart/form-data; boundary=${BOUNDARY}`;

  // the framing
  const m = rng();
  if (m < 0.08) {
    contentType = 'multipart/form-data';
    labels.push('no boundary');
    invalid = true;
  } else if (m < 0.14) {
    contentType = 'multipart/form-data; boundary=somethingElse';
    labels.push('boundary mismatch');
    invalid = true;
  } else if (m < 0.2) {
    body = body.subarray(0, Math.floor(body.length * (0.2 + rng() * 0.7)));
    labels.push('cut off mid-body');
    invalid = true;
  } else if (m < 0.24) {
    body = Buffer.from('{"name":"x","task":"y"}');
    labels.push('JSON under a multipart type');
    invalid = true;
  } else if (m < 0.27) {
    body = Buffer.alloc(0);
    labels.push('empty multipart body');
    invalid = true;
  } else if (m < 0.3) {
    contentType = `multipart/form-data; boundary=${'b'.repeat(200)}`;
    labels.push('boundary of 200 chars, not in the body');
    invalid = true;
  } else if (m < 0.33) {
    body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n`),
      body,
    ]);
    labels.push('a part without a name');
  } else if (m < 0.36) {
    body = Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n${'X-Junk: y\r\n'.repeat(40)}\r\n\r\n`), body]);
    labels.push('a part with 40 headers');
  } else if (m < 0.39) {
    contentType = `multipart/mixed; boundary=${BOUNDARY}`;
    labels.push('multipart/mixed');
    invalid = true;
  } else if (m < 0.42) {
    body = Buffer.from(body.toString('latin1').replaceAll('\r\n', '\n'), 'latin1');
    labels.push('bare LF line ends');
  }
  return { body, contentType, label: labels.join('; '), invalid };
}

// ---- queries and ids ----

function queryFor(route: Route, w: World, rng: Rng): string {
  const params: [string, string][] = [];
  const spec = route.query ?? {};
  const names = Object.keys(spec);
  const n = names.length ? 1 + Math.floor(rng() * 3) : 0;
  for (let i = 0; i < n; i++) {
    const k = pick(rng, names);
    params.push([k, String(pick(rng, spec[k]))]);
  }
  const r = rng();
  if (r < 0.15)
    params.push([pick(rng, ['__proto__', 'constructor', 'x', '', '[]', 'a[b]']), pick(rng, NASTY)]);
  else if (r < 0.2 && names.length) params.push([`${pick(rng, names)}[]`, 'x']);
  else if (r < 0.25 && names.length) {
    const k = pick(rng, names);
    params.push([k, '1'], [k, String(pick(rng, spec[k]))]);
  } else if (r < 0.28) params.push(['q', 'y'.repeat(3000)]);
  if (route.path.includes('proofs') && rng() < 0.3) {
    // a real name with another file's signature
    const real = new URL(w.proofUrl, 'http://x');
    params.push(
      ['exp', real.searchParams.get('exp') ?? ''],
      ['sig', (real.searchParams.get('sig') ?? '').slice(1)],
    );
  }
  if (!params.length) return '';
  const raw = rng() < 0.2;
  // lone surrogates cannot be URI-encoded: their UTF-8 replacement is sent instead
  const enc = (v: string) => encodeURIComponent(Buffer.from(v, 'utf8').toString('utf8'));
  // raw: as written, only what the HTTP client cannot send is escaped ('%zz' stays malformed)
  const asIs = (v: string) =>
    Buffer.from(v, 'utf8')
      .toString('utf8')
      .replace(/[^\x21-\x7e]|[#&]/gu, enc);
  return `?${params.map(([k, v]) => (raw ? `${asIs(k)}=${asIs(v)}` : `${enc(k)}=${enc(v)}`)).join('&')}`;
}

function pathWith(route: Route, id: string): string {
  return route.path.replace(':id', id);
}

// ---- the generator ----

export interface GeneratorOptions {
  /** how many requests in all */
  count: number;
  /** how many decompression bombs at most (they cost a full decode each) */
  bombs: number;
  /** how many multipart bodies over 5 MB at most */
  bigFiles: number;
}

/**
 * The requests: first a systematic sweep (every route x every identity, with each kind of
 * poison), then random mutations until `count`. Deterministic for a given rng.
 */
export function generate(w: World, rng: Rng, options: GeneratorOptions): HostileRequest[] {
  const all = routes();
  const out: HostileRequest[] = [];
  const bombsLeft = { n: options.bombs };
  let bigLeft = options.bigFiles;
  let n = 0;

  const make = (route: Route, who: Identity, mode: number): HostileRequest | null => {
    n++;
    const headers: Record<string, string> = {};
    if (who.authorization !== undefined) headers.Authorization = who.authorization;
    const refusedByAuth = authRefused(route, who);
    let refusedBy: HostileRequest['refusedBy'] = refusedByAuth
      ? 'auth'
      : route.mutating
        ? 'body'
        : 'read-only';
    const labels: string[] = [];

    // the target id
    let path = route.path;
    let idLive = false;
    if (path.includes(':id')) {
      const sets = route.ids?.(w, who) ?? { safe: [], live: [] };
      const r = rng();
      let id: string;
      if (r < 0.45 || (!sets.safe.length && !sets.live.length)) {
        id = pick(rng, GARBAGE_IDS);
        labels.push(`id ${short(id)}`);
        if (refusedBy === 'body') refusedBy = 'id';
      } else if (r < 0.75 && sets.safe.length) {
        id = pick(rng, sets.safe);
        labels.push('id refused for this identity');
        if (refusedBy === 'body') refusedBy = 'id';
      } else if (sets.live.length) {
        id = pick(rng, sets.live);
        idLive = true;
        labels.push('live id');
      } else {
        id = pick(rng, sets.safe);
        if (refusedBy === 'body') refusedBy = 'id';
      }
      path = pathWith(route, id);
    }
    const mustPoison = refusedBy === 'body';
    void idLive;
    path += queryFor(route, w, rng);

    if (route.kind === 'none') {
      if (mustPoison) return null; // nothing to poison: only auth or the id can refuse it
      // no body is read here; send one anyway now and then
      let body: string | undefined;
      if (rng() < 0.2) {
        body = toJson({ isFeatured: true, status: 'approved', amount: 1 });
        headers['Content-Type'] = 'application/json';
        labels.push('an unread body');
      }
      const method = rng() < 0.04 && route.method === 'GET' ? 'HEAD' : route.method;
      return {
        method,
        path,
        headers,
        body,
        group: route.group,
        route: `${route.method} ${route.path}`,
        label: labels.join('; ') || 'plain',
        who: who.name,
        refusedBy,
      };
    }

    if (route.kind === 'multipart') {
      const plan = multipartPlan(route, w, who, rng, bombsLeft);
      if (plan.body.length > 5_000_000) {
        if (bigLeft <= 0) return null;
        bigLeft--;
      }
      if (mustPoison && !plan.invalid) return null;
      headers['Content-Type'] = plan.contentType;
      labels.push(plan.label);
      return {
        method: route.method,
        path,
        headers,
        body: plan.body,
        group: route.group,
        route: `${route.method} ${route.path} (multipart)`,
        label: labels.join('; '),
        who: who.name,
        refusedBy,
      };
    }

    // JSON
    const base = route.base?.(w, n) ?? {};
    const known = new Set([...Object.keys(base), ...Object.keys(route.fields ?? {})]);
    let text: string;
    let contentType: string | undefined =
      rng() < 0.9
        ? 'application/json'
        : pick(rng, ['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/vnd.api+json', '']);
    let poisoned = false;
    const kind = mode % 6;
    if (kind <= 2 && route.contentMatters && (route.fields || route.required || route.special)) {
      const fp = fieldPoison(route, w, n, rng);
      if (!fp) return null;
      let body = fp.body;
      labels.push(fp.label);
      if (rng() < 0.5) {
        const ex = withExtras(rng, body, known);
        body = ex.body;
        if (ex.label) labels.push(ex.label);
      }
      text = toJson(body);
      if (rng() < 0.1 && fp.label.includes('=')) {
        const field = fp.label.split('=')[0];
        text = duplicateKey(text, field, base[field] ?? 'valid');
        labels.push('duplicate key, valid first');
      }
      poisoned = true;
    } else if (kind <= 4) {
      const options = framingPoisons(route, n, rng, toJson(base));
      const p = pick(rng, options);
      text = p.body;
      if (p.contentType !== undefined) contentType = p.contentType;
      if (p.extraHeaders) Object.assign(headers, p.extraHeaders);
      labels.push(p.label);
      // claims gzip but is plain valid JSON: not a poison on its own
      poisoned = !p.label.startsWith('claims');
    } else if (route.money) {
      text = toJson(base);
      headers['Idempotency-Key'] = pick(rng, [
        '',
        ' ',
        'x'.repeat(201),
        'has space',
        'tab\there',
        'ünïcode',
        '\u00ff',
      ]);
      labels.push(`bad Idempotency-Key`);
      poisoned = true;
    } else {
      // a valid body with extras: only when something else refuses it
      const ex = withExtras(rng, base, known);
      text = toJson(ex.body);
      labels.push(`valid body ${ex.label}`);
    }
    if (mustPoison && !poisoned) return null;
    if (contentType) headers['Content-Type'] = contentType;
    return {
      method: route.method,
      path,
      headers,
      body: text,
      group: route.group,
      route: `${route.method} ${route.path}`,
      label: labels.join('; '),
      who: who.name,
      refusedBy,
    };
  };

  // systematic: every route, every identity, each mode
  for (const route of all) {
    for (const who of w.identities) {
      for (let mode = 0; mode < 6; mode++) {
        const r = make(route, who, mode);
        if (r) out.push(r);
        if (route.kind === 'none' && mode > 0) break;
      }
    }
  }
  out.push(...extraRequests(w));
  // random until the count
  let guard = 0;
  while (out.length < options.count && guard++ < options.count * 20) {
    const route = pick(rng, all);
    const who = pick(rng, w.identities);
    const r = make(route, who, Math.floor(rng() * 6));
    if (r) out.push(r);
  }
  return out;
}

/** Unknown routes, methods, static paths, path tricks the HTTP client can still send. */
function extraRequests(w: World): HostileRequest[] {
  const out: HostileRequest[] = [];
  const admin = w.identities.find((i) => i.kind === 'admin');
  const add = (
    method: string,
    path: string,
    label: string,
    headers: Record<string, string> = {},
    body?: string,
  ) =>
    out.push({
      method,
      path,
      headers,
      body,
      group: path.startsWith('/api') ? 'unknown/api' : 'static',
      route: 'other',
      label,
      who: 'anonymous',
      refusedBy: 'read-only',
    });
  for (const m of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    add(m, '/api', 'api root');
    add(m, '/api/nope', 'unknown api route');
    add(
      m,
      '/api/admin/nope',
      'unknown admin route',
      admin?.authorization ? { Authorization: admin.authorization } : {},
    );
    add(m, '/api/tasks/x/y/z', 'too deep');
    add(m, '/api/../secret.key', 'dot-dot (normalised by the client)');
    add(m, '/api/%2e%2e/secret.key', 'encoded dot-dot');
    add(m, '/api/files/images/..%2f..%2fsecret.key', 'encoded slash');
    add(m, '/api/files/proofs/%2e%2e%2f%2e%2e%2ftaskreward.db', 'encoded dot-dot to the database');
    add(m, '/api//tasks//', 'doubled slashes');
    add(m, '/API/TASKS', 'upper case');
    add(m, '/api/tasks;jsessionid=1', 'path parameter');
    add(m, '/api/tasks%3Fq=1', 'encoded question mark');
    add(m, `/api/${'a/'.repeat(500)}`, 'a 500-segment path');
    add(m, '/%2e%2e/%2e%2e/secret.key', 'encoded dot-dot at the root');
    add(m, '/assets/..%2f..%2fsecret.key', 'asset traversal');
    add(m, '/index.html/../../secret.key', 'traversal after a file');
  }
  for (const m of ['PROPFIND', 'MKCOL', 'LOCK', 'PURGE', 'SEARCH', 'REPORT', 'COPY', 'MOVE']) {
    add(m, '/api/tasks', `method ${m}`);
    add(m, '/', `method ${m} on a page`);
  }
  add('POST', '/', 'POST to the app', { 'Content-Type': 'application/json' }, '{}');
  add('PUT', '/index.html', 'PUT a page', { 'Content-Type': 'text/html' }, '<h1>defaced</h1>');
  add('DELETE', '/assets/app.js', 'DELETE an asset');
  add('GET', '/api/tasks', 'Upgrade: websocket', { Connection: 'Upgrade', Upgrade: 'websocket' });
  add('GET', '/api/tasks', 'X-HTTP-Method-Override: DELETE', { 'X-HTTP-Method-Override': 'DELETE' });
  add(
    'POST',
    '/api/tasks',
    'X-HTTP-Method-Override on an admin route',
    { 'X-HTTP-Method-Override': 'GET', 'Content-Type': 'application/json' },
    '{}',
  );
  add('GET', '/api/settings', 'X-Forwarded-For spoofing', {
    'X-Forwarded-For': '127.0.0.1, 10.0.0.1',
    'X-Real-IP': '1.2.3.4',
  });
  add('GET', '/api/settings', 'a 12 KB header', { 'X-Big': 'h'.repeat(12_000) });
  add('GET', '/api/tasks', 'Range header', { Range: 'bytes=0-1,2-3,-1' });
  add('GET', `/api/files/images/${w.imageFile}`, 'Range on a file', { Range: 'bytes=999999-' });
  return out;
}
