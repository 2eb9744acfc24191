// Blotters: orders (with Cancel for working ones), deals and open positions of every account. They are fetched
// again when an order report arrives on the stream, not by polling fast (production limits those calls).

import { useEffect, useState } from 'react';
import { explainedRefusal } from '../../contract/broker-messages.js';
import { type AccountView, accountKey } from '../accounts';
import { client, messageOf } from '../api';
import { integer, price, signed, taipeiTimeOfEpoch, trend } from '../format';
import { useDebounced, usePolling, useStreamEvent } from '../hooks';
import type { Position, Trade } from '../types';
import { Card, ErrorLine } from './Card';

const WORKING = new Set(['PendingSubmit', 'PreSubmitted', 'Submitted', 'PartFilled']);
/** Positions are valued at the last price, so they are refreshed slowly even without reports. */
const POSITIONS_REFRESH_MS = 15_000;

type AccountPosition = Position & { accountType: string };

interface DealRow {
  key: string;
  ts: number;
  code: string;
  action: string;
  price: number;
  quantity: number;
  orderId: string;
}

async function loadPositions(accounts: AccountView[]): Promise<AccountPosition[]> {
  const tradable = accounts.filter(
    (a): a is AccountView & { account_type: 'S' | 'F' } => a.account_type === 'S' || a.account_type === 'F',
  );
  const lists = await Promise.all(
    tradable.map(async ({ account_type, broker_id, account_id }) => {
      const rows = await client.portfolio.positionUnit({ account_type, broker_id, account_id });
      return rows.map((row) => ({ ...row, accountType: account_type }));
    }),
  );
  return lists.flat();
}

function dealsOf(trades: Trade[]): DealRow[] {
  return trades
    .flatMap((trade) =>
      trade.status.deals.map((deal) => ({
        key: `${trade.order.id}-${deal.seq}`,
        ts: deal.ts,
        code: trade.contract.code,
        action: trade.order.action,
        price: deal.price,
        quantity: deal.quantity,
        orderId: trade.order.id,
      })),
    )
    .sort((a, b) => b.ts - a.ts);
}

/** The contract's code, and the month a continuous alias stood for when they differ. */
const codeOf = ({ contract }: Trade) =>
  contract.target_code && contract.target_code !== contract.code
    ? `${contract.code} (${contract.target_code})`
    : contract.code;

export function BlottersCard({ accounts, placedCount }: { accounts: AccountView[] | null; placedCount: number }) {
  const trades = usePolling(() => client.orders.trades({}), 0);
  const positions = usePolling(
    () => (accounts ? loadPositions(accounts) : Promise.resolve(null)),
    accounts ? POSITIONS_REFRESH_MS : 0,
  );
  const [actionError, setActionError] = useState<string | null>(null);
  const refresh = useDebounced(() => {
    trades.reload();
    positions.reload();
  }, 250);
  useStreamEvent('order_event', refresh);
  // An order placed from the ticket shows at once, even if the stream is down.
  useEffect(() => {
    if (placedCount > 0) refresh();
  }, [placedCount, refresh]);

  async function cancel(trade: Trade) {
    try {
      const answer = await client.orders.cancelOrder({ trade_id: trade.order.id });
      setActionError(answer.status.status === 'Cancelled' ? null : explainedRefusal(answer.status).join('; '));
    } catch (error) {
      setActionError(messageOf(error));
    }
    refresh();
  }

  const orders = [...(trades.data ?? [])].sort((a, b) => b.status.order_ts - a.status.order_ts);
  const deals = dealsOf(trades.data ?? []);
  return (
    <Card id="blotters" title="Orders, deals and positions" span={8}>
      <h3 className="subhead">
        Orders <span className="muted">{orders.length}</span>
      </h3>
      <div className="scroll">
        <table className="table" data-testid="orders-table">
          <thead>
            <tr>
              <th>Time</th>
              <th>Code</th>
              <th>Side</th>
              <th className="num">Price</th>
              <th className="num">Qty</th>
              <th className="num">Filled</th>
              <th>Type</th>
              <th>Status</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {orders.map((trade) => (
              <tr key={trade.order.id} data-testid={`order-${trade.order.id}`}>
                <td className="mono muted">{taipeiTimeOfEpoch(trade.status.order_ts)}</td>
                <td className="mono">{codeOf(trade)}</td>
                <td className={trade.order.action === 'Buy' ? 'up' : 'down'}>{trade.order.action}</td>
                <td className="num">
                  {trade.order.price_type === 'LMT' ? price(trade.order.price) : trade.order.price_type}
                </td>
                <td className="num">{integer(trade.order.quantity)}</td>
                <td className="num">{integer(trade.status.deal_quantity)}</td>
                <td className="muted">{trade.order.order_type}</td>
                <td>
                  <span
                    className={`tag status-${trade.status.status}`}
                    title={explainedRefusal(trade.status).join('; ')}
                    data-testid="order-status"
                  >
                    {trade.status.status}
                  </span>
                </td>
                <td className="actions">
                  {WORKING.has(trade.status.status) ? (
                    <button
                      type="button"
                      className="small"
                      data-testid={`order-cancel-${trade.order.id}`}
                      onClick={() => void cancel(trade)}
                    >
                      Cancel
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
            {trades.data && orders.length === 0 ? (
              <tr>
                <td colSpan={9} className="muted">
                  No orders today.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <ErrorLine message={actionError ?? trades.error} testId="blotter-error" />
      <div className="split">
        <div>
          <h3 className="subhead">
            Deals <span className="muted">{deals.length}</span>
          </h3>
          <div className="scroll short">
            <table className="table" data-testid="deals-table">
              <thead>
                <tr>
                  <th>Time</th>
                  <th>Code</th>
                  <th>Side</th>
                  <th className="num">Price</th>
                  <th className="num">Qty</th>
                </tr>
              </thead>
              <tbody>
                {deals.map((deal) => (
                  <tr key={deal.key} data-testid={`deal-${deal.orderId}`}>
                    <td className="mono muted">{taipeiTimeOfEpoch(deal.ts)}</td>
                    <td className="mono">{deal.code}</td>
                    <td className={deal.action === 'Buy' ? 'up' : 'down'}>{deal.action}</td>
                    <td className="num">{price(deal.price)}</td>
                    <td className="num">{integer(deal.quantity)}</td>
                  </tr>
                ))}
                {trades.data && deals.length === 0 ? (
                  <tr>
                    <td colSpan={5} className="muted">
                      No deals yet.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
        </div>
        <div>
          <h3 className="subhead">
            Positions <span className="muted">{positions.data?.length ?? ''}</span>
          </h3>
          <div className="scroll short">
            <table className="table" data-testid="positions-table">
              <thead>
                <tr>
                  <th>Code</th>
                  <th>Side</th>
                  <th className="num">Qty</th>
                  <th className="num">Avg</th>
                  <th className="num">Last</th>
                  <th className="num">P&amp;L</th>
                </tr>
              </thead>
              <tbody>
                {positions.data?.map((position) => (
                  <tr key={`${position.accountType}-${position.id}`} data-testid={`position-${position.code}`}>
                    <td className="mono">{position.code}</td>
                    <td className={position.direction === 'Buy' ? 'up' : 'down'}>{position.direction}</td>
                    <td className="num">{integer(position.quantity)}</td>
                    <td className="num">{price(position.price)}</td>
                    <td className="num">{price(position.last_price)}</td>
                    <td className={`num ${trend(position.pnl)}`}>{signed(position.pnl, 0)}</td>
                  </tr>
                ))}
                {positions.data?.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="muted">
                      No open positions.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
        </div>
      </div>
      <ErrorLine message={positions.error} />
      <p className="hint">Accounts: {accounts?.map((a) => `${a.account_type} ${accountKey(a)}`).join(', ') || '…'}</p>
    </Card>
  );
}
