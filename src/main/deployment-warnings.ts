import type { Config } from '../config.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/**
 * What an operator should hear at start-up about a set-up that works but is unsafe: the two
 * proxy misconfigurations docs/deploy.md ("Behind a load balancer") warns of, and /metrics open
 * to whoever reaches the instance. Pure: the config in, one line per warning out.
 */
export function deploymentWarnings(config: Pick<Config, 'host' | 'trustedProxies' | 'metricsToken'>): string[] {
  const warnings: string[] = [];
  const reachable = !LOOPBACK.test(config.host);
  const { hops, ranges } = config.trustedProxies;
  const everyAddress = ranges.some((r) => r.prefix === 0);
  if (reachable && ranges.length === 0 && hops === undefined) {
    warnings.push(
      `warning: listening on ${config.host} with no SPQ_TRUSTED_PROXIES: behind a balancer every client counts as the balancer's address (one client's bad sign-ins would limit everyone). Set SPQ_TRUSTED_PROXIES to the balancer's range (docs/deploy.md, "Behind a load balancer").`,
    );
  }
  if ((ranges.length === 0 && hops !== undefined && hops > 0 && reachable) || everyAddress) {
    warnings.push(
      `warning: ${everyAddress ? 'SPQ_TRUSTED_PROXIES trusts every address' : 'SPQ_TRUSTED_PROXY_HOPS is set without SPQ_TRUSTED_PROXIES'}: a client that reaches an instance directly can write any address into ${config.trustedProxies.header} and escape every per-address limit. Name the balancer's range in SPQ_TRUSTED_PROXIES.`,
    );
  }
  if (reachable && config.metricsToken === undefined) {
    warnings.push(
      `warning: GET /metrics has no SPQ_METRICS_TOKEN: it answers whoever reaches ${config.host} directly (requests through a trusted proxy get 404). Set SPQ_METRICS_TOKEN, or keep the instances' own addresses private.`,
    );
  }
  return warnings;
}
