// The flooding account of faults/flood.fault.ts, in a process of its own (started with a
// lower CPU priority, standing in for the attacker's own machine): parallel profile-photo
// uploads and password changes for FLOOD_MS, then one line of JSON with the statuses it got
// (0: the server cut the connection). Plain JavaScript, so any Node runs it as it is.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const env = process.env;
const url = env.FLOOD_URL;
const photo = readFileSync(env.FLOOD_PHOTO_BODY);
const photoType = env.FLOOD_PHOTO_TYPE;
const password = env.FLOOD_PASSWORD;
const address = env.FLOOD_ADDRESS;
let token = env.FLOOD_TOKEN;
const until = Date.now() + Number(env.FLOOD_MS);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const statuses = {};

function send(method, path, headers, body) {
  return new Promise((resolve) => {
    const req = http.request(
      new URL(path, url),
      { method, headers: { ...headers, 'content-length': body.length }, agent },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
        res.on('error', () => resolve({ status: 0, body: '' }));
      },
    );
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(body);
  });
}

const count = (status) => {
  statuses[status] = (statuses[status] ?? 0) + 1;
};

async function photos() {
  while (Date.now() < until) {
    const res = await send(
      'PUT',
      '/api/users/me',
      { authorization: `Bearer ${token}`, 'content-type': photoType, 'x-forwarded-for': address },
      photo,
    );
    count(res.status);
  }
}

// each success ends the flooder's other sessions: the workers go on with the newest token
async function passwords() {
  const body = Buffer.from(JSON.stringify({ name: 'Flooder', password, currentPassword: password }));
  while (Date.now() < until) {
    const res = await send(
      'PUT',
      '/api/users/me',
      { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-forwarded-for': address },
      body,
    );
    count(res.status);
    if (res.status === 200) token = JSON.parse(res.body).token;
  }
}

await Promise.all([
  ...Array.from({ length: Number(env.FLOOD_PHOTO_WORKERS) }, photos),
  ...Array.from({ length: Number(env.FLOOD_PASSWORD_WORKERS) }, passwords),
]);
agent.destroy();
console.log(JSON.stringify(statuses));
