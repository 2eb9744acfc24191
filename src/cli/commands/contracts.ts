// `sjgate contracts ...`: contract lookup (Contract V2), with the official CLI's flags, plus `combo` and `combos`.

import { type Command, Option } from 'commander';
import { CONTRACT_PATHS, contractInfoPath, contractPath, SSE_PATHS, tickBandsPath } from '../../contract/paths.js';
import { COMBO_TYPES, REGIONS, SECURITY_TYPES } from '../../domain/contracts.js';
import { type QueryValue, withQuery } from '../client.js';
import { action, UsageError } from '../context.js';
import type { Runtime } from '../daemon.js';
import { formatHeading, formatRecord, formatTable, printError, type Row } from '../output.js';
import { codeList, date, decimal, integerIn, month, oneOf, text } from '../parsers.js';
import { followStream, printLine, stopSignal, streamAction } from '../stream.js';

const COLUMNS = {
  contracts: ['code', 'security_type', 'exchange', 'region', 'target_code'],
  futures: [
    'code',
    'name',
    'delivery_month',
    'last_trading_date',
    'reference',
    'limit_up',
    'limit_down',
    'target_code',
  ],
  options: ['code', 'name', 'delivery_month', 'strike_price', 'option_right', 'last_trading_date', 'reference'],
  warrants: [
    'code',
    'name',
    'underlying_code',
    'call_put',
    'strike_price',
    'exercise_ratio',
    'expiry_date',
    'last_trading_date',
    'reference',
  ],
  roots: ['root', 'name'],
  bands: ['min', 'max', 'tick'],
  combos: ['code', 'combo_type', 'legs', 'exchange', 'managed'],
};

interface ContractList {
  contracts: Row[];
  security_type: string;
  region: string;
  total: number;
  page?: number;
  page_size?: number;
  max_page?: number;
}

interface TickBandRule {
  region: string;
  security_type: string;
  rule: string;
  basis: string;
  bands: Row[];
}

interface Contract {
  security_type: string;
  exchange: string;
  code: string;
}

type Options = Record<string, string | number | boolean | string[] | undefined>;

const regionOption = () =>
  new Option('--region <REGION>', `market region: ${REGIONS.join(', ')} (default TW)`).argParser(oneOf(REGIONS));
const typeOption = (types: readonly string[], description = 'security type') =>
  new Option('--type <TYPE>', `${description}: ${types.join(', ')}`).argParser(oneOf(types));

export function registerContracts(program: Command, runtime: Runtime): void {
  const contracts = program
    .command('contracts')
    .description('look up contracts: stocks, indices, futures, options, warrants and combos')
    .addHelpText(
      'after',
      `
Examples:
  $ sjgate contracts get 2330
  $ sjgate contracts info TXFR1 --type FUT
  $ sjgate contracts list --type STK --page 1 --page-size 50
  $ sjgate contracts options --root TXO --right C --strike-min 40000 --strike-max 41000
  $ sjgate contracts combo --legs TXFG6,TXFH6`,
    );

  contracts
    .command('list')
    .description('list the contracts of one security type (all of them, or one page with --page/--page-size)')
    .addOption(typeOption(SECURITY_TYPES).makeOptionMandatory())
    .option('--page <N>', 'page number, from 1', integerIn(1))
    .option('--page-size <N>', 'contracts per page (alone: page 1)', integerIn(1))
    .addOption(regionOption())
    .action(
      action<Options>(runtime, async (cli, o) => {
        const query = { security_type: o.type, page: o.page, page_size: o.pageSize, region: o.region };
        const list = await cli.call((client) => client.get<ContractList>(CONTRACT_PATHS.contracts, queryOf(query)));
        cli.emit(list, (value) => {
          const footer =
            value.page === undefined
              ? `total ${value.total}`
              : `page ${value.page} of ${value.max_page ?? '?'} (total ${value.total})`;
          return `${formatTable(value.contracts, COLUMNS.contracts)}\n${footer}`;
        });
      }),
    );

  contracts
    .command('get')
    .description('the contract identity of a code (what orders and subscriptions need)')
    .argument('<CODE>', 'product code, e.g. 2330, TXFR1, IX0001', text)
    .addOption(typeOption(SECURITY_TYPES, 'restrict the search to a security type'))
    .addOption(regionOption())
    .action(
      action<Options>(runtime, async (cli, o, [code]) => {
        const query = queryOf({ security_type: o.type, region: o.region });
        const contract = await cli.call((client) => client.get<Row>(contractPath(code as string), query));
        cli.emit(contract, (value) => formatRecord(value));
      }),
    );

  contracts
    .command('info')
    .description('every field of a contract (warrants: use `contracts warrants`)')
    .argument('<CODE>', 'product code', text)
    .addOption(typeOption(['STK', 'IND', 'FUT', 'OPT'], 'restrict the search to a security type'))
    .addOption(regionOption())
    .action(
      action<Options>(runtime, async (cli, o, [code]) => {
        const query = queryOf({ security_type: o.type, region: o.region });
        const info = await cli.call((client) => client.get<Row>(contractInfoPath(code as string), query));
        cli.emit(info, (value) => formatRecord(value, { table: true }));
      }),
    );

  contracts
    .command('futures')
    .description('futures of a product root, or every futures on an underlying')
    .addOption(new Option('--root <ROOT>', 'product root, e.g. TXF').argParser(text).conflicts('underlying'))
    .option('--underlying <CODE>', 'underlying code, e.g. 2330 or IX0001', text)
    .option('--month <YYYYMM>', 'delivery month', month)
    .addOption(regionOption())
    .addHelpText(
      'after',
      '\nGive --root or --underlying.\n\nExample:\n  $ sjgate contracts futures --root TXF --month 202607',
    )
    .action(
      action<Options>(runtime, async (cli, o) => {
        if (o.root === undefined && o.underlying === undefined) throw new UsageError('give --root or --underlying');
        const query = { root: o.root, underlying_code: o.underlying, delivery_month: o.month, region: o.region };
        const list = await cli.call((client) => client.get<Row[]>(CONTRACT_PATHS.futures, queryOf(query)));
        cli.emit(list, (rows) => formatTable(rows, COLUMNS.futures));
      }),
    );

  contracts
    .command('options')
    .description('options of a product root, filtered by month, right and strike')
    .requiredOption('--root <ROOT>', 'product root, e.g. TXO', text)
    .option('--month <YYYYMM>', 'delivery month', month)
    .addOption(new Option('--right <C|P>', 'calls or puts').argParser(oneOf(['C', 'P'])))
    .option('--strike-min <PRICE>', 'lowest strike', decimal)
    .option('--strike-max <PRICE>', 'highest strike', decimal)
    .option('--expiry-weekday <DAY>', 'weekly options expiring on this weekday, e.g. Wed or Fri', text)
    .addOption(regionOption())
    .action(
      action<Options>(runtime, async (cli, o) => {
        const query = {
          root: o.root,
          delivery_month: o.month,
          option_right: o.right,
          strike_min: o.strikeMin,
          strike_max: o.strikeMax,
          expiry_weekday: o.expiryWeekday,
          region: o.region,
        };
        const list = await cli.call((client) => client.get<Row[]>(CONTRACT_PATHS.options, queryOf(query)));
        cli.emit(list, (rows) => formatTable(rows, COLUMNS.options));
      }),
    );

  contracts
    .command('warrants')
    .description('warrants on an underlying stock')
    .requiredOption('--underlying <CODE>', 'underlying stock code, e.g. 2330', text)
    .option('--code <CODE>', 'one warrant', text)
    .addOption(new Option('--call-put <C|P>', 'calls or puts').argParser(oneOf(['C', 'P'])))
    .option('--strike-min <PRICE>', 'lowest strike', decimal)
    .option('--strike-max <PRICE>', 'highest strike', decimal)
    .option('--expiry-from <YYYY-MM-DD>', 'earliest expiry date', date)
    .option('--expiry-to <YYYY-MM-DD>', 'latest expiry date', date)
    .addOption(regionOption())
    .action(
      action<Options>(runtime, async (cli, o) => {
        const query = {
          underlying_code: o.underlying,
          code: o.code,
          call_put: o.callPut,
          strike_min: o.strikeMin,
          strike_max: o.strikeMax,
          expiry_from: o.expiryFrom,
          expiry_to: o.expiryTo,
          region: o.region,
        };
        const list = await cli.call((client) => client.get<Row[]>(CONTRACT_PATHS.warrants, queryOf(query)));
        cli.emit(list, (rows) => formatTable(rows, COLUMNS.warrants));
      }),
    );

  for (const [name, path, what] of [
    ['futures-roots', CONTRACT_PATHS.futuresRoots, 'futures'],
    ['option-roots', CONTRACT_PATHS.optionsRoots, 'option'],
  ] as const) {
    contracts
      .command(name)
      .description(`the ${what} product roots and their names`)
      .addOption(regionOption())
      .action(
        action<Options>(runtime, async (cli, o) => {
          const list = await cli.call((client) => client.get<Row[]>(path, queryOf({ region: o.region })));
          cli.emit(list, (rows) => formatTable(rows, COLUMNS.roots));
        }),
      );
  }

  contracts
    .command('warrant-underlyings')
    .description('the stocks that have warrants, with how many')
    .option('--include-name', 'include the underlying names')
    .addOption(regionOption())
    .action(
      action<Options>(runtime, async (cli, o) => {
        const query = queryOf({ include_name: o.includeName === true ? true : undefined, region: o.region });
        const list = await cli.call((client) => client.get<Row[]>(CONTRACT_PATHS.warrantUnderlyings, query));
        cli.emit(list, (rows) => formatTable(rows));
      }),
    );

  contracts
    .command('tick-bands')
    .description('the tick size by price band of a futures or options tick rule (Info.tick_rule)')
    .argument('<RULE>', 'tick rule, e.g. TXO', text)
    .addOption(typeOption(['FUT', 'OPT']).makeOptionMandatory())
    .addOption(regionOption())
    .action(
      action<Options>(runtime, async (cli, o, [rule]) => {
        const query = queryOf({ security_type: o.type, region: o.region });
        const bands = await cli.call((client) => client.get<TickBandRule>(tickBandsPath(rule as string), query));
        cli.emit(bands, (value) => {
          const heading = `${value.rule} tick bands (${value.security_type}, ${value.basis} basis, ${value.region})`;
          return `${formatHeading(heading)}\n${formatTable(value.bands, COLUMNS.bands)}`;
        });
      }),
    );

  contracts
    .command('combo')
    .description('build the combo contract of two futures or options legs')
    .requiredOption('--legs <CODE1,CODE2>', 'the two leg codes, comma-separated', codeList)
    .addOption(new Option('--combo-type <TYPE>', `combo type: ${COMBO_TYPES.join(', ')}`).argParser(oneOf(COMBO_TYPES)))
    .addOption(regionOption())
    .addHelpText(
      'after',
      `
Each leg code is looked up first for its security type and exchange.

Examples:
  $ sjgate contracts combo --legs TXFG6,TXFH6
  $ sjgate contracts combo --legs TXO43000G6,TXO43000S6 --combo-type Straddle`,
    )
    .action(
      action<Options>(runtime, async (cli, o) => {
        const codes = o.legs as string[];
        if (codes.length !== 2) throw new UsageError(`--legs takes two codes, got ${codes.length}`);
        const combo = await cli.call(async (client) => {
          const legs: Contract[] = [];
          for (const code of codes) {
            const leg = await client.get<Contract>(contractPath(code), queryOf({ region: o.region }));
            legs.push({ security_type: leg.security_type, exchange: leg.exchange, code: leg.code });
          }
          const body = o.comboType === undefined ? { legs } : { legs, combo_type: o.comboType };
          return client.post<Row>(CONTRACT_PATHS.combo, body);
        });
        cli.emit(combo, (value) => formatRecord(value));
      }),
    );

  contracts
    .command('watch')
    .description('stream contract refresh events (07:50, 08:00, 14:45, 17:15) until Ctrl+C')
    .addOption(new Option('--type <TYPE>', 'only this security type').choices([...SECURITY_TYPES]))
    .addOption(regionOption())
    .action(
      streamAction<Options>(runtime, async (cli, o, json) => {
        const path = withQuery(SSE_PATHS.contractEvent, queryOf({ region: o.region, security_type: o.type }));
        const { signal, dispose } = stopSignal();
        if (process.stderr.isTTY) printError('Watching contract refresh events (Ctrl+C to stop)');
        try {
          await cli.call((client) =>
            followStream(
              client,
              path,
              (message) => {
                if (message.event !== 'contract_event') return;
                const event = JSON.parse(message.data) as Row;
                printLine(json ? JSON.stringify(event) : formatContractEvent(event));
              },
              { signal },
            ),
          );
        } finally {
          dispose();
        }
      }),
    );

  contracts
    .command('combos')
    .description('every valid futures time-spread combo of a root')
    .requiredOption('--root <ROOT>', 'futures root, e.g. TXF', text)
    .addOption(regionOption())
    .action(
      action<Options>(runtime, async (cli, o) => {
        const query = queryOf({ root: o.root, region: o.region });
        const list = await cli.call((client) => client.get<Row[]>(CONTRACT_PATHS.comboFutures, query));
        cli.emit(list, (rows) => formatTable(rows, COLUMNS.combos));
      }),
    );
}

/** One line per event: the JSON itself with --format json, a readable row on a terminal. */
function formatContractEvent(event: Row): string {
  const changed = event.base_changed ? 'contracts changed' : 'no change';
  return `${event.published_at}  ${event.security_type}  ${event.action}  ${changed}`;
}

/** Only the values the user gave. */
function queryOf(values: Record<string, unknown>): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query[key] = value;
  }
  return query;
}
