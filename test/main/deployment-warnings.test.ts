import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { deploymentWarnings } from '../../src/main/deployment-warnings.ts';

const configOf = (env: Record<string, string>) => loadConfig({ SPQ_SERVER_SECRET: 'warnings-secret-0123456789abcdef', ...env });

describe('start-up warnings for unsafe deployments', () => {
  it('none on the default (127.0.0.1) or a balancer set up as documented', () => {
    expect(deploymentWarnings(configOf({}))).toEqual([]);
    expect(deploymentWarnings(configOf({ SPQ_HOST: '0.0.0.0', SPQ_TRUSTED_PROXIES: '10.0.0.0/24', SPQ_TRUSTED_PROXY_HOPS: '1', SPQ_METRICS_TOKEN: 'scrape-token' }))).toEqual([]);
  });

  it('reachable with no trusted proxies: every client would count as the balancer', () => {
    const warnings = deploymentWarnings(configOf({ SPQ_HOST: '0.0.0.0', SPQ_METRICS_TOKEN: 't' }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/no SPQ_TRUSTED_PROXIES.*balancer's address/);
  });

  it('hops without ranges, or a range of every address: clients could choose their address', () => {
    expect(deploymentWarnings(configOf({ SPQ_HOST: '0.0.0.0', SPQ_TRUSTED_PROXY_HOPS: '1', SPQ_METRICS_TOKEN: 't' }))).toEqual([expect.stringMatching(/HOPS is set without SPQ_TRUSTED_PROXIES/)]);
    expect(deploymentWarnings(configOf({ SPQ_HOST: '0.0.0.0', SPQ_TRUSTED_PROXIES: '0.0.0.0/0', SPQ_METRICS_TOKEN: 't' }))).toEqual([expect.stringMatching(/trusts every address/)]);
  });

  it('/metrics with no token on a reachable address', () => {
    expect(deploymentWarnings(configOf({ SPQ_HOST: '0.0.0.0', SPQ_TRUSTED_PROXIES: '10.0.0.0/24' }))).toEqual([expect.stringMatching(/GET \/metrics has no SPQ_METRICS_TOKEN/)]);
  });
});
