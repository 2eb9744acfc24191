import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatResult, formatStocks } from '../../../../src/cli/commands/reserve/request.js';
import { envelope, fakeDaemon } from '../../../helpers/cli.js';

const ACCOUNT = {
  account_type: 'S',
  person_id: 'A123456789',
  broker_id: '9A95',
  account_id: '6880831',
  signed: true,
  username: 'test',
};
const CONTRACT = { security_type: 'STK', region: 'TW', exchange: 'TSE', code: '2330', target_code: null };
const SUMMARY = { stocks: [{ contract: CONTRACT, available_share: 1000, reserved_share: 1000 }], account: ACCOUNT };
const DETAIL = {
  stocks: [{ contract: CONTRACT, share: 1000, order_datetime: '2026-11-23T10:00:00', status: true, info: 'ok' }],
  account: ACCOUNT,
};
const EARMARKS = {
  stocks: [
    {
      contract: CONTRACT,
      share: 1000,
      price: 580.5,
      amount: 580_500,
      order_datetime: '2026-11-23T10:00:00',
      status: true,
      info: 'ok',
    },
  ],
  account: ACCOUNT,
};

function daemon() {
  return fakeDaemon(({ url, body }) => {
    const request = (body ?? {}) as Record<string, unknown>;
    switch (url) {
      case '/api/v1/order/stock_reserve_summary':
        return [200, SUMMARY];
      case '/api/v1/order/stock_reserve_detail':
        return [200, DETAIL];
      case '/api/v1/order/earmarking_detail':
        return [200, EARMARKS];
      case '/api/v1/order/reserve_stock': {
        const status = (request.share as number) <= 1000;
        const info = status ? 'reserved' : 'cannot reserve: 1000 shares are available';
        return [200, { contract: CONTRACT, account: ACCOUNT, share: request.share, status, info }];
      }
      case '/api/v1/order/reserve_earmarking':
        return [
          200,
          { contract: CONTRACT, account: ACCOUNT, share: request.share, price: request.price, status: true, info: '' },
        ];
      default:
        return envelope('ROUTE_NOT_FOUND', `no route ${url}`);
    }
  });
}

describe('formatting', () => {
  test('rows by code; an empty list says so', () => {
    const text = formatStocks(SUMMARY);
    assert.match(text, /code\s*│\s*available_share\s*│\s*reserved_share/);
    assert.match(text, /2330\s*│\s*1000\s*│\s*1000/);
    assert.equal(formatStocks({ stocks: [] }), '(none today)');
  });
  test('a result says accepted or refused, with the reason', () => {
    assert.equal(
      formatResult({ contract: CONTRACT, share: 5000, status: false, info: 'only 1000' }),
      'refused: 5000 shares of 2330 — only 1000',
    );
  });
});

describe('sjgate reserve against a fake daemon', () => {
  const fake = daemon();
  const { seen, sjgate } = fake;
  before(() => fake.start());
  after(() => fake.stop());
  const last = () => {
    const { method, url, body } = seen.at(-1)!;
    return [method, url, body];
  };

  test('summary, detail and earmarking-detail post the stock account; --format json prints the answer', async () => {
    for (const [command, path, answer] of [
      ['summary', 'stock_reserve_summary', SUMMARY],
      ['detail', 'stock_reserve_detail', DETAIL],
      ['earmarking-detail', 'earmarking_detail', EARMARKS],
    ] as const) {
      const run = await sjgate('--format', 'json', 'reserve', command, '--account', '9A95-6880831');
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), answer);
      assert.deepEqual(last(), [
        'POST',
        `/api/v1/order/${path}`,
        { account_type: 'S', broker_id: '9A95', account_id: '6880831' },
      ]);
    }
    const human = await sjgate('reserve', 'detail');
    assert.match(human.stdout, /2330\s*│\s*1000\s*│\s*2026-11-23T10:00:00/);
  });

  test('stock CODE SHARES posts the contract and the shares; a refusal exits 1 with the reason', async () => {
    const ok = await sjgate('reserve', 'stock', '2330', '1000');
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /accepted: 1000 shares of 2330 — reserved/);
    assert.deepEqual(last(), [
      'POST',
      '/api/v1/order/reserve_stock',
      { account_type: 'S', contract: { code: '2330' }, share: 1000 },
    ]);
    const refused = await sjgate('--format', 'json', 'reserve', 'stock', '2330', '5000');
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.stdout).status, false);
  });

  test('earmarking CODE SHARES PRICE posts the price too', async () => {
    const run = await sjgate('reserve', 'earmarking', '2330', '1000', '580.5');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /accepted: 1000 shares of 2330 \(NT\$580500 at 580.5\)/);
    assert.deepEqual(last(), [
      'POST',
      '/api/v1/order/reserve_earmarking',
      { account_type: 'S', contract: { code: '2330' }, share: 1000, price: 580.5 },
    ]);
  });

  test("the official CLI's --code, --share and --price post the same; given twice differently is a usage error", async () => {
    const stock = await sjgate('reserve', 'stock', '--code', '2330', '--share', '1000');
    assert.equal(stock.code, 0, stock.stderr);
    assert.deepEqual(last(), [
      'POST',
      '/api/v1/order/reserve_stock',
      { account_type: 'S', contract: { code: '2330' }, share: 1000 },
    ]);
    const earmark = await sjgate('reserve', 'earmarking', '--code', '2330', '--share', '1000', '--price', '580.5');
    assert.equal(earmark.code, 0, earmark.stderr);
    assert.deepEqual(last(), [
      'POST',
      '/api/v1/order/reserve_earmarking',
      { account_type: 'S', contract: { code: '2330' }, share: 1000, price: 580.5 },
    ]);
    const mixed = await sjgate('reserve', 'earmarking', '2330', '--share', '1000', '--price', '580.5');
    assert.equal(mixed.code, 0, mixed.stderr);
    const same = await sjgate('reserve', 'stock', '2330', '1000', '--code', '2330');
    assert.equal(same.code, 0, same.stderr);
    for (const [args, message] of [
      [['stock', '2330', '1000', '--code', '2317'], /code is given twice, as 2330 and as --code 2317/],
      [['stock', '--code', '2330'], /give the share, as the argument or --share/],
      [['earmarking', '--code', '2330', '--share', '1000'], /give the price, as the argument or --price/],
      [['stock', '--share', '1000'], /give the code/],
      [['stock', '--code', '2330', '--share', '0'], /--share.*integer from 1/],
    ] as const) {
      const run = await sjgate('reserve', ...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(seen.length, 0, 'nothing is sent');
    }
  });

  test('bad shares are a usage error before anything is sent', async () => {
    for (const shares of ['0', '1.5', '500000', 'ten']) {
      const run = await sjgate('reserve', 'stock', '2330', shares);
      assert.equal(run.code, 2, `${shares}: ${run.stderr}`);
      assert.match(run.stderr, /SHARES|integer/);
      assert.equal(seen.length, 0, 'nothing is sent');
    }
  });
});
