import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The server as an operator runs it: `node --import tsx src/server/main.ts`, configured by the
 * environment (DATABASE_URL only when given). `listening` settles on the "running at" line itself
 * (or rejects with the output when the process exits first), never on a polling interval.
 */
export function startServerProcess(
  env: Record<string, string>,
  children: ChildProcess[],
  /** Node's arguments: the sources through tsx unless given (a benchmark runs the built bundle). */
  args = ['--import', 'tsx', 'src/server/main.ts'],
) {
  const { DATABASE_URL: _ignored, ...base } = process.env;
  const child = spawn(process.execPath, args, {
    env: { ...base, NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  let onOutput = () => {};
  const append = (chunk: Buffer) => {
    output += chunk;
    onOutput();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  /** The exit code, or the signal that ended it. */
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const listening = new Promise<string>((resolve, reject) => {
    onOutput = () => {
      const match = output.match(/running at http:\/\/localhost:(\d+)/);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    };
    void exited.then(() => reject(new Error(output)));
  });
  listening.catch(() => {});
  return { child, exited, listening, output: () => output };
}
