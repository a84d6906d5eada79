// npm run demo [-- --force]
// Fills the embedded database under DATA_DIR (or DATABASE_URL) with a believable firm to look
// around in, and prints how to sign in. The server must not be running on the same DATA_DIR.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { DirLockedError } from '../src/server/db/dir-lock';
import { DemoRefusedError, fillDemo } from './demo/index';

async function main() {
  const { values } = parseArgs({ options: { force: { type: 'boolean', default: false } } });
  const config = loadConfig({ LOG_LEVEL: 'warn', ...process.env });
  if (config.idp.mode !== 'embedded') {
    throw new DemoRefusedError(
      'The demo creates its people in the embedded identity provider: unset IDP_MODE (it is cognito).',
    );
  }
  const where = config.databaseUrl
    ? `PostgreSQL (${new URL(config.databaseUrl).host})`
    : `${config.dataDir}/db`;
  console.log(`Filling ${where} with the demo firm…`);
  const started = performance.now();
  const database = await openDatabase(config);
  try {
    const demo = await fillDemo(database, config, { force: values.force });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const { counts } = demo;
    console.log(
      `\n${demo.firmName}: ${demo.people.length} people, ${counts.clients} clients, ${counts.engagements} engagements,`,
    );
    console.log(`${counts.projects} projects and ${counts.tasks} tasks, in ${seconds} s.\n`);
    console.log(`Start the server (npm start) and sign in at ${config.publicUrl}/auth/login as:\n`);
    for (const person of [demo.owner, demo.staff]) {
      const who = person.role === 'Owner' ? 'owner' : 'staff, assigned clients only';
      console.log(`  ${person.name} (${who})`);
      console.log(`    email     ${person.email}`);
      console.log(`    password  ${demo.password}\n`);
    }
    const others = demo.people.filter((p) => p !== demo.owner && p !== demo.staff);
    console.log(
      `Everyone else has the same password: ${others.map((p) => `${p.email} (${p.role})`).join(', ')}.`,
    );
    if (demo.portalUsers.length) {
      console.log(
        `\nClient portal: sign in at ${config.publicUrl}/clientportal/auth/login with one of these emails,`,
      );
      console.log(
        config.mail.smtpUrl
          ? '  then the 6-digit code mailed to it:\n'
          : `  then the 6-digit code from the outbox (${config.mail.outboxDir}) or the server log:\n`,
      );
      for (const user of demo.portalUsers) {
        console.log(`  ${user.name}  ${user.email}  (${user.clients.join(', ')})`);
      }
    }
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  if (error instanceof DemoRefusedError || error instanceof DirLockedError || error instanceof ConfigError) {
    console.error(error.message);
    if (error instanceof DirLockedError)
      console.error('Stop the server first: the demo writes to the same directory.');
  } else {
    console.error(error);
  }
  process.exit(1);
});
