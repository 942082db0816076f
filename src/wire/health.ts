import { Type } from '@sinclair/typebox';

export const HealthResult = Type.Object({ status: Type.Literal('ok') });

export const ReadyResult = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({
    database: Type.Boolean(),
    rate_limiter: Type.Boolean(),
    pool_release: Type.Boolean(),
    io_pool: Type.Boolean({
      description:
        "Extension: Node's shared thread pool (every file read and write of executes and downloads) answered a file check within SPQ_READY_IO_MS (1,000 ms): false when the pool is starved, so a balancer takes the instance out while it cannot serve files",
    }),
  }),
  version: Type.String({ description: 'Pool release version being served' }),
  checksum: Type.String({
    description: 'Extension: content checksum of the pool release being served (hex SHA-256 of its manifest); every instance behind one load balancer shows the same',
  }),
});
