// `npm run instances:local`: a deployment of several instances on this machine, as README "Running
// several instances" describes one: N instances of the production build (dist/server/main.js) on
// one PostgreSQL database, files in an S3 server (s3rver), mail through an SMTP server that keeps
// what it receives, and a round-robin load balancer in front that checks each instance's readiness.
// Everything listens on loopback; everything it writes is under INSTANCES_DIR.
//
//   npm run instances:local                      # 3 instances behind http://localhost:3000
//   INSTANCES=2 LB_PORT=8080 npm run instances:local
//   DATABASE_URL=postgres://user@host/db npm run instances:local   # default: database practice_local
//                                                                  # on postgres://postgres@127.0.0.1:5432
// Ctrl-C stops the instances as a rolling upgrade would (SIGTERM) and then the rest.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(import.meta.dirname, '..');
const COUNT = Number(process.env.INSTANCES ?? 3);
const LB_PORT = Number(process.env.LB_PORT ?? 3000);
const FIRST_PORT = LB_PORT + 1;
const S3_PORT = Number(process.env.S3_PORT ?? 4569);
const SMTP_PORT = Number(process.env.SMTP_PORT ?? 2525);
const dir = path.resolve(process.env.INSTANCES_DIR ?? path.join(root, 'data-instances'));
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/practice_local';
const publicUrl = `http://127.0.0.1:${LB_PORT}`;

fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
const say = (line) => console.log(`[instances] ${line}`);

// The production build, made once when missing (npm start rebuilds when the sources changed).
if (
  !fs.existsSync(path.join(root, 'dist/server/main.js')) ||
  !fs.existsSync(path.join(root, 'dist/web/index.html'))
) {
  say('no build yet: npm run build');
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// The database, created when missing.
{
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const found = await client.query('select 1 from pg_database where datname = $1', [name]);
  if (!found.rowCount) {
    await client.query(`create database ${pg.escapeIdentifier(name)}`);
    say(`created database ${name}`);
  }
  await client.end();
}

// One vault key for every instance, kept beside the data so a restart keeps reading it.
const keyFile = path.join(dir, 'vault-keys');
if (!fs.existsSync(keyFile)) {
  fs.writeFileSync(keyFile, `local:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
}
const vaultKeys = fs.readFileSync(keyFile, 'utf8').trim();

const s3 = new S3rver({
  address: '127.0.0.1',
  port: S3_PORT,
  silent: true,
  directory: path.join(dir, 's3'),
  configureBuckets: [{ name: 'documents' }],
});
await s3.run();
say(`S3 (s3rver) at http://127.0.0.1:${S3_PORT}, bucket documents, files in ${path.join(dir, 's3')}`);

// The SMTP server keeps each message as a file and says who it was for.
const mailDir = path.join(dir, 'mail');
fs.mkdirSync(mailDir, { recursive: true });
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const data = Buffer.concat(chunks).toString('utf8');
      const file = path.join(mailDir, `${Date.now()}-${randomBytes(3).toString('hex')}.eml`);
      fs.writeFileSync(file, data);
      const subject = /^Subject: (.*)$/im.exec(data)?.[1] ?? '';
      say(`mail to ${session.envelope.rcptTo.map((r) => r.address).join(', ')}: ${subject} (${file})`);
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(SMTP_PORT, '127.0.0.1', resolve));
say(`SMTP at smtp://127.0.0.1:${SMTP_PORT}, messages in ${mailDir}`);

// The instances: the same settings but their port and DATA_DIR (which then holds only their logs).
const env = {
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PUBLIC_URL: publicUrl,
  TRUST_PROXY: 'loopback',
  DATABASE_URL: databaseUrl,
  VAULT_KEYS: vaultKeys,
  SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
  STORAGE_DRIVER: 's3',
  S3_ENDPOINT: `http://127.0.0.1:${S3_PORT}`,
  S3_REGION: 'us-east-1',
  S3_BUCKET: 'documents',
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
};
const instances = [];
function startInstance(i) {
  const port = FIRST_PORT + i;
  const dataDir = path.join(dir, `instance-${i + 1}`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const log = fs.createWriteStream(path.join(dataDir, 'server.log'), { flags: 'a' });
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'dist/server/main.js')], {
    cwd: root,
    env: { ...env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const instance = { name: `i${i + 1}`, port, child, ready: false };
  // The full log goes to its file; warnings and errors (and a refusal to start) to this terminal.
  const relay = (chunk) => {
    log.write(chunk);
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      let level = 50;
      let msg = line;
      try {
        const parsed = JSON.parse(line);
        level = parsed.level;
        msg = parsed.msg;
      } catch {}
      if (level >= 40) console.log(`[${instance.name}] ${msg}`);
    }
  };
  child.stdout.on('data', relay);
  child.stderr.on('data', relay);
  child.on('exit', (code, signal) => {
    instance.ready = false;
    say(`${instance.name} (port ${port}) exited with ${signal ?? code}`);
  });
  return instance;
}
for (let i = 0; i < COUNT; i++) instances.push(startInstance(i));

// The load balancer: round robin over the instances whose readiness check answers 200
// (GET /api/ready, or /api/health on a build without it), checked every second.
async function check(instance) {
  const get = (p) =>
    fetch(`http://127.0.0.1:${instance.port}${p}`, { signal: AbortSignal.timeout(900) }).then(
      (r) => r.status,
      () => 0,
    );
  let status = await get('/api/ready');
  if (status === 404) status = await get('/api/health');
  const ready = status === 200;
  if (ready !== instance.ready)
    say(`${instance.name} (port ${instance.port}) ${ready ? 'ready' : 'not ready'}`);
  instance.ready = ready;
}
const checks = setInterval(() => instances.forEach(check), 1000);
let next = 0;
const balancer = http.createServer((req, res) => {
  const ready = instances.filter((i) => i.ready);
  if (!ready.length) {
    res.writeHead(503, { 'content-type': 'text/plain' }).end('No instance is ready\n');
    return;
  }
  const target = ready[next++ % ready.length];
  const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  const upstream = http.request(
    {
      host: '127.0.0.1',
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, 'x-forwarded-for': forwarded, 'x-forwarded-proto': 'http' },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end();
  });
  req.pipe(upstream);
});
await new Promise((resolve) => balancer.listen(LB_PORT, '127.0.0.1', resolve));
say(
  `${COUNT} instances on ports ${FIRST_PORT}–${FIRST_PORT + COUNT - 1} (logs in ${dir}/instance-N/server.log)`,
);
say(
  `open ${publicUrl} (the load balancer); list the instances: DATABASE_URL=${databaseUrl} npm run instances`,
);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  say('stopping: SIGTERM to each instance');
  clearInterval(checks);
  await Promise.all(
    instances.map(
      (i) =>
        new Promise((resolve) => {
          if (i.child.exitCode !== null || i.child.signalCode !== null) return resolve();
          i.child.once('exit', resolve);
          i.child.kill('SIGTERM');
        }),
    ),
  );
  balancer.close();
  await new Promise((resolve) => smtp.close(resolve));
  await s3.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
