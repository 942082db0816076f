import { HealthResult } from '../../../wire/health.ts';
import type { Api, ReplyOf, RequestOf } from '../../types.ts';

export const schema = {
  operationId: 'getLiveness',
  security: [],
  summary: 'Liveness: the process answers',
  description: "Answers 200 while the process runs, whatever its dependencies: for a supervisor's liveness probe. Needs no key and is not rate limited.",
  tags: ['operations'],
  response: { 200: HealthResult },
} as const;

export const handler = () => async (_request: RequestOf<typeof schema>, reply: ReplyOf<typeof schema>) => reply.code(200).send({ status: 'ok' as const });

export function registerHealthz(app: Api): void {
  app.get('/healthz', { schema }, handler());
}
