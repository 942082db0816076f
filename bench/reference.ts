/**
 * The API reference's weight and first paint in Chromium (Debian's, through playwright-core), cold
 * (a new browser context per load, so nothing is cached), median of --loads loads. Beside it, in
 * the same run and on the same server, the baseline: the account area's sign-in page (one small
 * server-rendered page and its stylesheet and script), the floor for any page this server sends.
 * Each page is loaded over loopback and over an emulated network (--mbps down, --rtt ms round
 * trip; Chromium's network emulation), where bytes cost time. --page NAME=URL adds a page
 * served elsewhere (e.g. Swagger UI from an older build) to compare against.
 * Usage: node bin/run-ts.js bench/reference.ts [--loads 7] [--mbps 10] [--rtt 40] [--page swagger=http://…/docs/]
 */
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { startTestServer } from '../test/http/harness.ts';
import { CHROMIUM, chromiumAvailable, launchChromium } from '../test/support/chromium.ts';
import { fmtInt, fmtMs, machineLine, median } from './lib.ts';

const { values } = parseArgs({
  options: { loads: { type: 'string', default: '7' }, mbps: { type: 'string', default: '10' }, rtt: { type: 'string', default: '40' }, page: { type: 'string', multiple: true, default: [] } },
});
const loads = Number(values.loads);
if (!chromiumAvailable) {
  process.stdout.write(`skipped: no Chromium at ${CHROMIUM} (set SPQ_CHROMIUM)\n`);
  process.exit(0);
}

interface Load {
  readonly fcp: number;
  readonly load: number;
  readonly bytes: number;
  readonly requests: number;
}

type Network = { readonly name: string; readonly throttle?: { readonly downloadThroughput: number; readonly uploadThroughput: number; readonly latency: number } };

const NETWORKS: readonly Network[] = [
  { name: 'loopback' },
  { name: `${values.mbps} Mbit/s, ${values.rtt} ms RTT`, throttle: { downloadThroughput: (Number(values.mbps) * 1e6) / 8, uploadThroughput: (Number(values.mbps) * 1e6) / 8, latency: Number(values.rtt) } },
];

/** One cold load: first contentful paint and load event (ms from navigation start), bytes and requests on the wire. */
async function coldLoad(browser: Browser, url: string, network: Network): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (network.throttle) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...network.throttle });
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
    requests += 1;
  });
  await page.goto(url, { waitUntil: 'load' });
  // Wait for the network to settle: Swagger UI fetches its document after load.
  await page.waitForLoadState('networkidle');
  const timing = await page.evaluate(() => {
    const perf = (globalThis as unknown as { performance: { getEntriesByType(t: string): { name: string; startTime: number; loadEventEnd?: number }[] } }).performance;
    const fcp = perf.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')?.startTime ?? Number.NaN;
    const load = perf.getEntriesByType('navigation')[0]?.loadEventEnd ?? Number.NaN;
    return { fcp, load };
  });
  await context.close();
  return { ...timing, bytes, requests };
}

const s = await startTestServer();
const browser = await launchChromium();
try {
  const pages: [string, string][] = [
    ['baseline: /console/sign-in', `${s.baseUrl}/console/sign-in`],
    ['/docs (this build)', `${s.baseUrl}/docs`],
    ...(values.page as string[]).map((p): [string, string] => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
  ];
  process.stdout.write(`${machineLine()}; ${loads} cold loads each, medians\n\n| page | network | bytes | requests | first contentful paint (ms) | ratio to baseline | load event (ms) |\n|---|---|---|---|---|---|---|\n`);
  for (const network of NETWORKS) {
    let baseline = Number.NaN;
    for (const [name, url] of pages) {
      await coldLoad(browser, url, network); // warm the server (first render, route compilation)
      const runs: Load[] = [];
      for (let i = 0; i < loads; i++) runs.push(await coldLoad(browser, url, network));
      const fcp = median(runs.map((r) => r.fcp));
      if (Number.isNaN(baseline)) baseline = fcp;
      process.stdout.write(
        `| ${name} | ${network.name} | ${fmtInt(median(runs.map((r) => r.bytes)))} | ${median(runs.map((r) => r.requests))} | ${fmtMs(fcp)} | ${(fcp / baseline).toFixed(2)} | ${fmtMs(median(runs.map((r) => r.load)))} |\n`,
      );
    }
  }
} finally {
  await browser.close();
  await s.close();
}
