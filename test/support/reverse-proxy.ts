/**
 * A real reverse proxy for tests: Debian's nginx (package nginx-light; .ci/run installs it),
 * started as a child process with its own configuration, logs and temp files in a fresh
 * directory, in front of an upstream on this machine. It appends the client's address to
 * X-Forwarded-For, or to Forwarded (RFC 7239), as a production load balancer does, and reaches
 * the upstream from a chosen loopback address (proxy_bind), so the service can tell it apart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

export interface ReverseProxy {
  readonly url: string;
  close(): Promise<void>;
}

export async function startReverseProxy(options: { readonly port: number; readonly upstream: string; readonly bindAddress: string; readonly header: 'x-forwarded-for' | 'forwarded' }): Promise<ReverseProxy> {
  if (NGINX === undefined) throw new Error('nginx is not installed: apt-get install -y nginx-light (.ci/run does)');
  const dir = await mkdtemp(join(tmpdir(), 'spq-nginx-'));
  const forwarding =
    options.header === 'x-forwarded-for'
      ? 'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;'
      : 'proxy_set_header Forwarded $spq_forwarded;';
  await writeFile(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
daemon off;
events { worker_connections 128; }
http {
  access_log off;
  # Bodies stay in memory (its workers cannot write to this root-owned temp directory); the
  # service's largest body (a query of 5,000 selections) is 1.1 MB.
  client_body_buffer_size 2m;
  client_max_body_size 2m;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  map $http_forwarded $spq_forwarded {
    ""      "for=$remote_addr";
    default "$http_forwarded, for=$remote_addr";
  }
  server {
    listen 127.0.0.1:${options.port};
    location / {
      proxy_pass ${options.upstream};
      proxy_bind ${options.bindAddress};
      proxy_set_header Host $http_host;
      ${forwarding}
      proxy_buffering off;
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let tries = 0; !(await listening(options.port)); tries++) {
    if (child.exitCode !== null || tries > 100) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    async close() {
      // SIGQUIT: nginx's graceful stop; its workers leave with it.
      child.kill('SIGQUIT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
