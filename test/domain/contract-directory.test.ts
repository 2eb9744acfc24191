import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { type ContractDirectory, contractDirectoryOf } from '../../src/domain/contract-directory.js';
import { type ContractInfo, type FuturesInfo, SECURITY_TYPES } from '../../src/domain/contracts.js';
import { type DomainError, InvalidRequestError, NotFoundError } from '../../src/domain/errors.js';
import { ContractList, productTableOf } from '../../src/domain/listed-contracts.js';
import { TICK_BAND_RULES } from '../../src/domain/ticks.js';
import { ManualClock } from '../../src/domain/time.js';
import { MONDAY_MORNING } from '../helpers/app.js';

// Real records of the simulator's catalog on Monday 2026-11-23: TXF lists L6 (12-16) and A7 (01-20), MX4K6 is the
// weekly of 11-25, CDF is TSMC's stock futures (tick rule STK), TXO and its weeklies TX1 (Wed) and TXU (Fri).
const broker = new SimBroker({
  clock: new ManualClock(MONDAY_MORNING),
  seed: 1,
  clockMode: 'always-open',
  apiKey: null,
});
const catalog = broker.contracts.current();
const FIXTURE_CODES = [
  ...['2330', '2317', 'IX0001'],
  ...['TXFL6', 'TXFA7', 'TXFR1', 'MX4K6', 'CDFL6', 'CDFA7'],
  ...['TXO36400L6', 'TXO36400X6', 'TXO36500L6', 'TX138500L6', 'TXU38500L6'],
  ...['060560', '06240P', '060564'],
];
const records: ContractInfo[] = FIXTURE_CODES.map((code) => catalog.find(code)!);
const directory = contractDirectoryOf(records);

const LIMIT = { timeout: 10_000 };
const codes = (infos: readonly { code: string | null }[]) => infos.map((info) => info.code);

function throwsWith(run: () => unknown, kind: typeof NotFoundError | typeof InvalidRequestError, message: string) {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof kind, `${String(error)} is a ${kind.name}`);
    assert.equal((error as DomainError).message, message);
    return true;
  });
}

describe('a contract list', LIMIT, () => {
  test('finds a record by code and lists each type in the order given', () => {
    const list = new ContractList(records);
    assert.equal(list.find('TXFL6'), catalog.find('TXFL6'));
    assert.equal(list.find('TXFZ9'), undefined);
    assert.deepEqual(codes(list.all('STK')), ['2330', '2317']);
    assert.deepEqual(codes(list.all('FUT')), ['TXFL6', 'TXFA7', 'TXFR1', 'MX4K6', 'CDFL6', 'CDFA7']);
    assert.deepEqual(codes(list.all('WRT')), ['060560', '06240P', '060564']);
    assert.equal(list.size, FIXTURE_CODES.length);
  });

  test('an empty list has nothing of any type', () => {
    const list = new ContractList([]);
    for (const type of SECURITY_TYPES) assert.deepEqual(list.all(type), []);
    assert.equal(list.size, 0);
  });

  test('rejects a code listed twice', () => {
    assert.throws(() => new ContractList([...records, catalog.find('2330')!]), /2330 is listed twice/);
  });
});

describe('the product table a list implies', LIMIT, () => {
  const table = productTableOf(new ContractList(records));

  test('futures roots: the name without the month, the flow group as family, none from a continuous alias', () => {
    assert.deepEqual(table.futuresRoots, [
      { root: 'TXF', name: '臺股期貨', family: 'TXF' },
      { root: 'MX4', name: '小型臺指W4', family: 'MXF' },
      { root: 'CDF', name: '台積電期貨', family: 'CDF' },
    ]);
  });

  test('option roots: the name before the delivery month', () => {
    assert.deepEqual(table.optionRoots, [
      { root: 'TXO', name: '臺指選擇權' },
      { root: 'TX1', name: '臺指選擇權W1' },
      { root: 'TXU', name: '臺指選擇權F1' },
    ]);
  });

  test('a name that does not end in its delivery month names the root by itself', () => {
    const txfl6 = catalog.find('TXFL6') as FuturesInfo;
    const odd: FuturesInfo = { ...txfl6, code: 'ZZFL6', root: 'ZZF', name: '臺股期貨11', flow_group: 'ZZF' };
    assert.deepEqual(productTableOf(new ContractList([odd])).futuresRoots, [
      { root: 'ZZF', name: 'ZZF', family: 'ZZF' },
    ]);
  });

  test('warrants are written on the listed stocks', () => {
    assert.equal(table.underlyingName('2330'), '台積電');
    assert.equal(table.underlyingName('IX0001'), undefined);
    assert.equal(table.underlyingName('9999'), undefined);
  });

  test("on the simulator's whole catalog, the roots it lists are those of its product tables", () => {
    const whole = productTableOf(catalog);
    const simRoots = broker.contracts.futuresRoots();
    assert.ok(whole.futuresRoots.length >= 15, `${whole.futuresRoots.length} futures roots`);
    for (const { root, name } of whole.futuresRoots)
      assert.deepEqual(
        simRoots.find((r) => r.root === root),
        { root, name },
      );
    const simOptionRoots = broker.contracts.optionRoots();
    for (const { root, name } of whole.optionRoots) {
      assert.deepEqual(
        simOptionRoots.find((r) => r.root === root),
        { root, name },
      );
    }
  });
});

describe('lookups', LIMIT, () => {
  test('get answers the identity, info the record', () => {
    assert.deepEqual(directory.get('TXFR1'), {
      security_type: 'FUT',
      region: 'TW',
      exchange: 'TAIFEX',
      code: 'TXFR1',
      target_code: 'TXFL6',
    });
    assert.equal(directory.info('2330', { securityType: 'STK', region: 'TW' }), catalog.find('2330'));
  });

  test('not found: the code, the type and region asked for, and a hint for an old index code', () => {
    throwsWith(() => directory.get('9999'), NotFoundError, 'contract 9999 not found');
    throwsWith(() => directory.get('2330', { securityType: 'FUT' }), NotFoundError, 'contract 2330 not found as FUT');
    throwsWith(() => directory.info('2330', { region: 'US' }), NotFoundError, 'contract 2330 not found in region US');
    throwsWith(() => directory.get('2331'), NotFoundError, 'contract 2331 not found; did you mean 2330, 2317?');
    assert.equal(directory.get('txfr1').code, 'TXFR1');
    throwsWith(
      () => directory.get('TSE001'),
      NotFoundError,
      'contract TSE001 not found (index codes use the exchange form since 1.7, e.g. IX0001)',
    );
  });

  test('a warrant has an identity but no info', () => {
    assert.equal(directory.get('060560').security_type, 'WRT');
    throwsWith(
      () => directory.info('060560'),
      InvalidRequestError,
      '060560 is a warrant; warrants have no info lookup: use GET /api/v1/data/contracts/warrants?underlying_code=2330&code=060560',
    );
  });

  test('list and count', () => {
    assert.deepEqual(codes(directory.list('IND')), ['IX0001']);
    assert.deepEqual(directory.list('STK', 'JP'), []);
    assert.equal(directory.count(), FIXTURE_CODES.length);
  });
});

describe('futures, options and warrants', LIMIT, () => {
  test('futures by root, by underlying, by delivery month', () => {
    assert.deepEqual(codes(directory.futures({ root: 'TXF' })), ['TXFL6', 'TXFA7', 'TXFR1']);
    assert.deepEqual(codes(directory.futures({ underlyingCode: '2330', deliveryMonth: '202701' })), ['CDFA7']);
    assert.deepEqual(directory.futures({ root: 'TXF', region: 'HK' }), []);
    assert.deepEqual(directory.futuresRoots('HK'), []);
  });

  test('futures: neither root nor underlying lists every futures; both is a 400; each must be known', () => {
    const every = codes(directory.futures({}));
    assert.ok(every.includes('TXFL6') && every.includes('TXFR1'));
    assert.deepEqual(every, codes(directory.list('FUT')));
    const exclusive = 'give root or underlying_code, not both (neither lists every futures)';
    throwsWith(() => directory.futures({ root: 'TXF', underlyingCode: 'IX0001' }), InvalidRequestError, exclusive);
    throwsWith(
      () => directory.futures({ root: 'MXF' }),
      NotFoundError,
      'futures root MXF not found; GET /api/v1/data/contracts/futures/roots lists them',
    );
    throwsWith(() => directory.futures({ underlyingCode: '2454' }), NotFoundError, 'underlying 2454 not found');
  });

  test('options: a root selects its own series; right, strikes and weekday filter it', () => {
    assert.deepEqual(codes(directory.options({ root: 'TXO' })), ['TXO36400L6', 'TXO36400X6', 'TXO36500L6']);
    assert.deepEqual(codes(directory.options({ root: 'TXO', optionRight: 'C', strikeMin: 36450 })), ['TXO36500L6']);
    assert.deepEqual(codes(directory.options({ root: 'TXO', strikeMax: 36400, optionRight: 'P' })), ['TXO36400X6']);
    assert.deepEqual(codes(directory.options({ root: 'TXU', expiryWeekday: 'friday' })), ['TXU38500L6']);
    assert.deepEqual(directory.options({ root: 'TX1', expiryWeekday: 'Fri' }), []);
    throwsWith(
      () => directory.options({ root: 'TX2' }),
      NotFoundError,
      'options root TX2 not found; GET /api/v1/data/contracts/options/roots lists them',
    );
  });

  test('warrants by underlying and their filters; the underlyings with their counts', () => {
    assert.deepEqual(codes(directory.warrants({ underlyingCode: '2330' })), ['060560', '06240P']);
    assert.deepEqual(codes(directory.warrants({ underlyingCode: '2330', callPut: 'P' })), ['06240P']);
    assert.deepEqual(codes(directory.warrants({ underlyingCode: '2330', expiryTo: '2026-12-31' })), ['060560']);
    assert.deepEqual(directory.warrants({ underlyingCode: '2330', code: '060564' }), []);
    throwsWith(() => directory.warrants({ underlyingCode: 'IX0001' }), NotFoundError, 'underlying IX0001 not found');
    assert.deepEqual(directory.warrantUnderlyings(), [
      { underlying_code: '2330', name: '台積電', warrant_count: 2 },
      { underlying_code: '2317', name: '鴻海', warrant_count: 1 },
    ]);
  });
});

describe('combos and tick-band rules', LIMIT, () => {
  const leg = (code: string, security_type: 'FUT' | 'OPT' | 'STK' = 'FUT') => ({ security_type, code });

  test('a combo of two listed legs', () => {
    const combo = directory.createCombo([leg('TXFL6'), { ...leg('TXFA7'), exchange: 'TAIFEX' }]);
    assert.equal(combo.code, 'TXFL6/A7');
    assert.equal(combo.combo_type, 'TimeSpread');
  });

  test('combo legs that cannot be', () => {
    const invalid = (message: string) => `contracts: validation: ${message}`;
    throwsWith(
      () => directory.createCombo([leg('TXFL6')]),
      InvalidRequestError,
      invalid('a combo has exactly 2 legs, got 1'),
    );
    throwsWith(
      () => directory.createCombo([leg('TXFL6'), { ...leg('TXFA7'), action: 'Buy' }]),
      InvalidRequestError,
      invalid('combo legs must not carry an action field; the direction is chosen when ordering'),
    );
    throwsWith(
      () => directory.createCombo([leg('2330', 'STK'), leg('TXFA7')]),
      InvalidRequestError,
      invalid('combo legs must be futures (FUT) or options (OPT), got STK for 2330'),
    );
    throwsWith(
      () => directory.createCombo([leg('TXFR1'), leg('TXFA7')]),
      InvalidRequestError,
      invalid('combo legs must be specific-month contracts, not the continuous-month code TXFR1'),
    );
    throwsWith(
      () => directory.createCombo([leg('TXFL6'), { ...leg('TXFA7'), exchange: 'TSE' }]),
      InvalidRequestError,
      invalid('combo leg TXFA7 trades on TAIFEX, not TSE'),
    );
    throwsWith(
      () => directory.createCombo([leg('TXFL6'), leg('TXFA7', 'OPT')]),
      NotFoundError,
      'contract TXFA7 not found as OPT',
    );
  });

  test('the futures combos of a monthly root are its near/far pairs; a weekly root has none', () => {
    assert.deepEqual(codes(directory.futuresCombos('TXF')), ['TXFL6/A7']);
    assert.deepEqual(directory.futuresCombos('TXF', 'US'), []);
    const notMonthly = (root: string) =>
      `futures root ${root} not found; combos are listed by a monthly root such as TXF`;
    throwsWith(() => directory.futuresCombos('MX4'), NotFoundError, notMonthly('MX4'));
    throwsWith(() => directory.futuresCombos('ZZF'), NotFoundError, notMonthly('ZZF'));
  });

  test('tick-band rules: a known rule, a fixed-tick product, an unknown rule', () => {
    assert.equal(
      directory.tickBandRule('STK', 'FUT'),
      TICK_BAND_RULES.find((r) => r.rule === 'STK'),
    );
    throwsWith(
      () => directory.tickBandRule('TXF', 'FUT'),
      InvalidRequestError,
      "TXF has tick_basis 'fixed' (a fixed tick of 1); it has no tick-band rule: use the tick field of its info",
    );
    throwsWith(
      () => directory.tickBandRule('XYZ', 'OPT'),
      NotFoundError,
      'tick-band rule XYZ not found for OPT; rules: TXO, STO',
    );
  });
});

describe("a directory over the simulator's records answers as the simulator does", LIMIT, () => {
  const everything = SECURITY_TYPES.flatMap((type) => catalog.all(type));
  const fromRecords = contractDirectoryOf(everything);
  const sim: ContractDirectory = broker.contracts;

  test('futures, options, warrants, combos and counts', () => {
    for (const { root } of fromRecords.futuresRoots()) {
      assert.deepEqual(fromRecords.futures({ root }), sim.futures({ root }), root);
    }
    for (const { root } of fromRecords.optionRoots()) {
      assert.deepEqual(fromRecords.options({ root }), sim.options({ root }), root);
    }
    assert.deepEqual(fromRecords.warrantUnderlyings(), sim.warrantUnderlyings());
    assert.deepEqual(fromRecords.warrants({ underlyingCode: '2330' }), sim.warrants({ underlyingCode: '2330' }));
    assert.deepEqual(fromRecords.futuresCombos('MXF'), sim.futuresCombos('MXF'));
    assert.equal(fromRecords.count(), sim.count());
  });
});
