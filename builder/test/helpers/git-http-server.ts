/**
 * A real Git smart-HTTP server for tests: `git http-backend` (the git CLI's own CGI program)
 * behind a small node:http wrapper on 127.0.0.1. Clients (isomorphic-git, the git CLI) talk
 * the same protocol they talk to any hosting service.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServerOptions {
  /** Folder holding the repositories; `http://host/<name>` serves `<root>/<name>`. */
  root: string;
  /** When set, every request needs Basic auth whose password is this token (any username). */
  token?: string;
}

export interface GitHttpServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Requests served so far, newest last (method and path), for asserting what a client did. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts the server on an ephemeral port of 127.0.0.1. */
export async function startGitHttpServer(opts: GitHttpServerOptions): Promise<GitHttpServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (opts.token !== undefined && !authorized(req.headers.authorization, opts.token)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => runBackend(opts.root, req, url, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function authorized(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === token;
}

function runBackend(root: string, req: http.IncomingMessage, url: URL, body: Buffer, res: http.ServerResponse): void {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    REQUEST_METHOD: req.method ?? 'GET',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    CONTENT_LENGTH: String(body.length),
    REMOTE_ADDR: '127.0.0.1',
    REMOTE_USER: 'git',
    GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
    HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
  };
  const child = spawn('git', ['http-backend'], { env });
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.resume();
  child.on('close', () => {
    const all = Buffer.concat(out);
    const split = all.indexOf('\r\n\r\n') >= 0 ? all.indexOf('\r\n\r\n') : all.indexOf('\n\n');
    const sepLen = all.indexOf('\r\n\r\n') >= 0 ? 4 : 2;
    const head = all.subarray(0, split).toString('latin1');
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i < 0) continue;
      const name = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    res.end(all.subarray(split + sepLen));
  });
  // git http-backend may answer and exit without reading its input (an advertisement): the
  // broken pipe that leaves is no error of the request.
  child.stdin.on('error', () => {});
  child.stdin.end(body);
}
