import { Type } from '@sinclair/typebox';

export const HealthResult = Type.Object({ status: Type.Literal('ok') });

export const ReadyResult = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({
    database: Type.Boolean(),
    rate_limiter: Type.Boolean(),
    pool_release: Type.Boolean(),
  }),
  version: Type.String({ description: 'Pool release version being served' }),
  checksum: Type.String({
    description: 'Extension: content checksum of the pool release being served (hex SHA-256 of its manifest); every instance behind one load balancer shows the same',
  }),
});
