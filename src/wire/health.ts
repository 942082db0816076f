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
  levels: Type.Optional(
    Type.Array(Type.String(), { description: 'Extension: the geography levels served now (suburb, sa2, postcode, lga, state, australia)' }),
  ),
  building: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Extension: geography levels still being built in the background (`spq serve --inputs` with several levels serves its first one while it builds the rest); a query at one of them gets 503 service_unavailable with Retry-After until it is served. Empty once every level is served',
    }),
  ),
  building_seconds_left: Type.Optional(Type.Integer({ minimum: 1, description: 'Extension: with `building` not empty, the estimated seconds until those levels are served' })),
});
