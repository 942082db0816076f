/**
 * `spq client …`: the API from a shell, through the official TypeScript client (retries,
 * Idempotency-Key, progress). The key comes from SPQ_API_KEY only: a key on the command line
 * would show in the process list and the shell history.
 */
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { SpqClient, SpqError, type QueryRequest } from '../../../clients/typescript/src/index.ts';
import { hasDictionaryBeside } from '../../core/formats.ts';

interface ClientOptions {
  url?: string;
}

function clientOf(opts: ClientOptions): SpqClient {
  const apiKey = process.env['SPQ_API_KEY'];
  if (!apiKey) throw new Error('set SPQ_API_KEY to your API key (spq_live_… or spq_test_…); it is never read from the command line');
  const baseUrl = opts.url ?? process.env['SPQ_URL'] ?? 'http://127.0.0.1:8080';
  return new SpqClient({ baseUrl, apiKey, onRetry: (attempt, status, wait) => process.stderr.write(`retry ${attempt} after ${status || 'network error'}, waiting ${Math.round(wait)} ms\n`) });
}

/** A query from a JSON file, or from standard input with "-"; a file that cannot be read or parsed is named in the error. */
async function queryOf(source: string): Promise<QueryRequest> {
  const where = source === '-' ? 'standard input' : source;
  let text: string;
  try {
    text = source === '-' ? await new Promise<string>((resolve) => {
      let data = '';
      process.stdin.setEncoding('utf8').on('data', (d: string) => (data += d)).on('end', () => resolve(data));
    }) : await readFile(source, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the query file ${where}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as QueryRequest;
  } catch (error) {
    throw new Error(`the query in ${where} is not valid JSON (${(error as Error).message}); it should be an object such as {"geography_level": "suburb", …}`);
  }
}

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

/** API errors as one line with the request id; the exit code says failure. */
async function run(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    process.stderr.write(`spq client: ${error instanceof SpqError || error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

export function registerClientCommand(program: Command): void {
  const client = program
    .command('client')
    .description('call an spq server from the shell (key from SPQ_API_KEY; server from --url or SPQ_URL, default http://127.0.0.1:8080)')
    .option('--url <baseUrl>', 'the server');
  const opts = (): ClientOptions => client.opts<ClientOptions>();

  client
    .command('preview <query>')
    .description('price and check a query (a JSON file, or - for standard input); spends nothing')
    .action((source: string) => run(async () => print(await clientOf(opts()).preview(await queryOf(source)))));

  client
    .command('execute <query>')
    .description('run a query (charges credits) and download its file')
    .option('--out <file>', 'where to save the file (default: the name the server gives it)')
    .option('--dictionary <file>', "where to save a csv result's dictionary (codes, labels, measurement levels, missing codes; JSON); parquet and xlsx carry theirs inside")
    .option(
      '--idempotency-key <key>',
      'run the query under this key (any text up to 255 characters): after a dropped connection, the same command with the same key returns the first result instead of charging again (24 h)',
    )
    .action((source: string, o: { out?: string; dictionary?: string; idempotencyKey?: string }) =>
      run(async () => {
        const spq = clientOf(opts());
        const query = await queryOf(source);
        if (o.dictionary !== undefined && !hasDictionaryBeside(query.output_format ?? 'parquet')) {
          throw new Error(`--dictionary saves a csv result's dictionary; this query asks for ${query.output_format ?? 'parquet'} (its file carries its dictionary inside). Nothing was charged.`);
        }
        const result = await spq.execute(query, o.idempotencyKey !== undefined ? { idempotencyKey: o.idempotencyKey } : {});
        const out = o.out ?? decodeURIComponent(new URL(result.download_url).pathname.split('/').pop() ?? `${result.query_id}.${result.metadata.output_format}`);
        let shown = -1;
        let nextUnsized = 0;
        const { bytes } = await spq.download(result, out, {
          onProgress: (done, total) => {
            if (total === undefined) {
              // Sent compressed (csv, JSON): the size is known only at the end; a line every 8 MiB written.
              if (done >= nextUnsized) {
                nextUnsized = done + (8 << 20);
                process.stderr.write(`downloaded ${done} bytes\n`);
              }
              return;
            }
            const percent = total ? Math.floor((100 * done) / total) : -1;
            if (percent >= shown + 10) {
              shown = percent;
              process.stderr.write(`downloaded ${done} of ${total} bytes\n`);
            }
          },
        });
        if (o.dictionary !== undefined && result.dictionary_url) await spq.download(result.dictionary_url, o.dictionary);
        // What reproduces and cites the file (version, seed, implicate), and what it is (test data, fitted to what).
        const { version, seed, implicate, fitted_to, test_data } = result.metadata;
        print({
          query_id: result.query_id,
          credit_cost: result.credit_cost,
          credits_remaining: result.credits_remaining,
          file: out,
          bytes,
          version,
          seed,
          ...(implicate !== undefined ? { implicate } : {}),
          ...(fitted_to !== undefined ? { fitted_to } : {}),
          ...(test_data ? { test_data } : {}),
          ...(result.dictionary_url ? { dictionary_url: result.dictionary_url } : {}),
          ...(o.dictionary !== undefined ? { dictionary: o.dictionary } : {}),
        });
      }),
    );

  client.command('credits').description('the balance and tier').action(() => run(async () => print(await clientOf(opts()).credits())));
  client
    .command('history')
    .description('executed queries, newest first')
    .option('--page <n>', 'page', (v) => Number(v))
    .action((o: { page?: number }) => run(async () => print(await clientOf(opts()).history(o.page ? { page: o.page } : {}))));
  client
    .command('search <term>')
    .description('find suburbs')
    .action((term: string) => run(async () => print(await clientOf(opts()).search(term))));
}
