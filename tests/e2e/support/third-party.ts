import http from 'node:http';
import zlib from 'node:zlib';

export type TRecorded = { method: string; path: string; body: unknown };

// Chatwoot's SDK as far as the app uses it: run(), then window.$chatwoot with setUser/reset and a
// conversation cookie, each call reported back to this server.
const CHAT_SDK = `
(function () {
  var base = document.currentScript && new URL(document.currentScript.src).origin;
  function report(op, data) {
    fetch(base + '/chat/calls', { method: 'POST', body: JSON.stringify({ op: op, data: data }) });
  }
  window.chatwootSDK = {
    run: function (options) {
      report('run', { websiteToken: options.websiteToken });
      window.$chatwoot = {
        setUser: function (id, user) {
          document.cookie = 'cw_conversation=' + encodeURIComponent(id) + '; path=/';
          report('setUser', { id: id, user: user });
        },
        reset: function () {
          document.cookie = 'cw_conversation=; path=/; max-age=0';
          report('reset', {});
        },
      };
      window.dispatchEvent(new Event('chatwoot:ready'));
    },
  };
})();
`;

function decode(raw: Buffer, contentEncoding: string | undefined, url: URL): unknown {
  let buf = raw;
  if (contentEncoding === 'gzip' || url.searchParams.get('compression') === 'gzip-js') {
    try {
      buf = zlib.gunzipSync(raw);
    } catch {
      // Not gzip after all.
    }
  }
  const text = buf.toString('utf8');
  if (text.startsWith('data=')) {
    const data = decodeURIComponent(new URLSearchParams(text).get('data') ?? '');
    try {
      return JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
    } catch {
      return data;
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A loopback stand-in for a third-party host (analytics, chat): answers what the browser asks for
 * and records every request, so a test can say exactly what left the page.
 */
export async function startThirdParty() {
  const requests: TRecorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
      res.setHeader('access-control-allow-credentials', 'true');
      res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
      res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
      if (req.method === 'OPTIONS') return res.writeHead(204).end();
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        body: decode(Buffer.concat(chunks), req.headers['content-encoding'], url),
      });
      if (url.pathname === '/packs/js/sdk.js') {
        return res.writeHead(200, { 'content-type': 'application/javascript' }).end(CHAT_SDK);
      }
      if (url.pathname.endsWith('.js'))
        return res.writeHead(200, { 'content-type': 'application/javascript' }).end('');
      // PostHog's flags and remote configuration: nothing enabled, nothing failing.
      if (url.pathname.startsWith('/flags')) {
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"flags":{},"errorsWhileComputingFlags":false}');
      }
      if (url.pathname.startsWith('/array/'))
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":1}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
