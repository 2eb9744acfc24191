// The official CLI's re-writing of answers, each case as 1.7.9 printed it against sjgate (--format toon).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asOfficialModels } from '../../src/cli/official-models.js';
import { toToon } from '../../src/cli/toon.js';

const official = (value: unknown) => toToon(asOfficialModels(value));

test('a trade: its contract with region and without a null target_code, price_type after order_type', () => {
  const trade = {
    contract: { security_type: 'STK', exchange: 'TSE', code: '2330', target_code: null },
    order: { id: 'c2b9c4b7', action: 'Buy', time_in_force: 'ROD', order_type: 'ROD', ca: '', price_type: 'LMT' },
    status: { id: 'c2b9c4b7', status: 'Submitted' },
  };
  assert.equal(
    official([trade]),
    [
      '[1]:',
      '  - contract:',
      '      security_type: STK',
      '      region: TW',
      '      exchange: TSE',
      '      code: "2330"',
      '    order:',
      '      id: c2b9c4b7',
      '      action: Buy',
      '      time_in_force: ROD',
      '      order_type: ROD',
      '      price_type: LMT',
      '      ca: ""',
      '    status:',
      '      id: c2b9c4b7',
      '      status: Submitted',
    ].join('\n'),
  );
  const futures = { contract: { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFL6', target_code: 'TXFL6' } };
  assert.equal(
    official(futures),
    'contract:\n  security_type: FUT\n  region: TW\n  exchange: TAIFEX\n  code: TXFL6\n  target_code: TXFL6',
  );
});

test("contracts list rows keep a null target_code; a watchlist's contracts drop it", () => {
  const listed = { contracts: [{ security_type: 'IND', region: 'TW', exchange: 'TSE', code: 'IX0001' }] };
  assert.equal(
    official({ ...listed, security_type: 'IND', region: 'TW', total: 1 }),
    'contracts[1]{security_type,region,exchange,code,target_code}:\n  IND,TW,TSE,IX0001,null\n' +
      'security_type: IND\nregion: TW\ntotal: 1',
  );
  const paged = { total: 314, page: 1, page_size: 1, max_page: 314, security_type: 'STK', region: 'TW' };
  assert.match(official({ ...paged, ...listed }), /region: TW\npage: 1\npage_size: 1\nmax_page: 314\ntotal: 314$/);
  const watchlist = {
    id: 'wl-1',
    name: 'mine',
    contracts: [{ security_type: 'STK', exchange: 'TSE', code: '2330', target_code: null }],
  };
  assert.equal(
    official(watchlist),
    'id: "wl-1"\nname: mine\ncontracts[1]{security_type,region,exchange,code}:\n  STK,TW,TSE,"2330"',
  );
});

test('contract records lead with their dataset, in the official field order', () => {
  const future = { security_type: 'FUT', code: 'TXFL6', tick_value: 200, decimal_locator: 0, spec_kind: 'index_fut' };
  assert.equal(
    official([{ ...future, dataset: 'TW/FUT' }]),
    '[1]{dataset,security_type,code,tick_value,spec_kind,decimal_locator}:\n  TW/FUT,FUT,TXFL6,200,index_fut,0',
  );
  const warrant = { security_type: 'WRT', code: '06240P', name: '台積電群益54售03', issue_size: 20, reference: 3.31 };
  assert.equal(
    official({ ...warrant, dataset: 'TW/WRT' }),
    'dataset: TW/WRT\nsecurity_type: WRT\ncode: "06240P"\nissue_size: 20\nname: 台積電群益54售03\nreference: 3.31',
  );
  const underlying = { underlying_code: '2330', warrant_count: 21, name: '台積電' };
  assert.equal(official([underlying]), '[1]{underlying_code,name,warrant_count}:\n  "2330",台積電,21');
});

test('an answer of columns is printed as rows; anything else is left as it is', () => {
  const ticks = { datetime: ['2026-11-26T09:00:00', '2026-11-26T09:00:01'], close: [2060, 2065] };
  assert.equal(official(ticks), '[2]{datetime,close}:\n  2026-11-26T09:00:00,2060\n  2026-11-26T09:00:01,2065');
  assert.equal(official({ codes: ['2330'] }), 'codes[1]: "2330"', 'one column is a field');
  assert.equal(official({ a: [1, 2], b: [1] }), 'a[2]: 1,2\nb[1]: 1', 'columns of different lengths');
  assert.equal(official({ a: [1], b: 2 }), 'a[1]: 1\nb: 2');
});
