// Order ticket: an order for the selected code, sent only after an explicit second click that spells it out.
// The answer is shown as the gateway gave it: a refused order is a Trade with status Failed, the reason in msg and, from
// the simulator, every rule it breaks in violations; each is shown with its English, as the CLI prints them.

import { type ReactNode, useEffect, useRef, useState } from 'react';
import { explainedRefusal } from '../../contract/broker-messages.js';
import { type AccountView, accountKey } from '../accounts';
import { client, messageOf } from '../api';
import { contractInfo, isDerivative, quantityUnit } from '../contracts';
import { price as formatPrice } from '../format';
import { quoteBook } from '../quotes';
import type { ContractInfo, Trade } from '../types';
import { Card } from './Card';

type Action = 'Buy' | 'Sell';
type Stage = 'edit' | 'confirm' | 'sending';

interface Outcome {
  ok: boolean;
  text: string;
  /** The other rules a refused order breaks, each explained. */
  also?: string[];
}

interface TicketProps {
  code: string;
  accounts: AccountView[] | null;
  onPlaced: () => void;
}

function outcomeOf(trade: Trade): Outcome {
  const { status, order } = trade;
  if (status.status === 'Failed') {
    const [first, ...also] = explainedRefusal(status);
    return { ok: false, text: first || 'Failed', also };
  }
  const deals = status.deals;
  const filled = deals.reduce((sum, deal) => sum + deal.quantity, 0);
  const average = filled ? deals.reduce((sum, deal) => sum + deal.price * deal.quantity, 0) / filled : 0;
  const fills = filled ? ` · ${filled} @ ${formatPrice(Math.round(average * 100) / 100)}` : '';
  return { ok: true, text: `${status.status}${fills} · order ${order.id}` };
}

function Field({ label, htmlFor, children }: { label: string; htmlFor: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={htmlFor}>{label}</label>
      {children}
    </div>
  );
}

export function OrderTicketCard({ code, accounts, onPlaced }: TicketProps) {
  const [info, setInfo] = useState<ContractInfo | null>(null);
  const [infoError, setInfoError] = useState<string | null>(null);
  const [action, setAction] = useState<Action>('Buy');
  const [priceType, setPriceType] = useState<'LMT' | 'MKT'>('LMT');
  const [orderType, setOrderType] = useState<'ROD' | 'IOC' | 'FOK'>('ROD');
  const [price, setPrice] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [lot, setLot] = useState<'Common' | 'IntradayOdd'>('Common');
  const [condition, setCondition] = useState<'Cash' | 'MarginTrading' | 'ShortSelling'>('Cash');
  const [octype, setOctype] = useState<'Auto' | 'New' | 'Cover' | 'DayTrade'>('Auto');
  const [stage, setStage] = useState<Stage>('edit');
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  // On a first visit the ticket opens before any quote has arrived and shows the reference price; the first last
  // price replaces it, unless the user has typed a price by then.
  const priceIsReference = useRef(false);
  useEffect(() => {
    const stop = quoteBook.subscribe(() => {
      const last = quoteBook.get(code).last;
      if (!priceIsReference.current || last === null) return;
      priceIsReference.current = false;
      setPrice(String(last));
    });
    return () => {
      stop();
    };
  }, [code]);

  useEffect(() => {
    let current = true;
    priceIsReference.current = false;
    setInfo(null);
    setInfoError(null);
    setStage('edit');
    setOutcome(null);
    const last = quoteBook.get(code).last;
    setPrice(last === null ? '' : String(last));
    contractInfo(code).then(
      (found) => {
        if (!current) return;
        setInfo(found);
        const lastNow = quoteBook.get(code).last;
        if (last === null) setPrice(String(lastNow ?? found.reference));
        priceIsReference.current = last === null && lastNow === null;
      },
      (error: unknown) => current && setInfoError(messageOf(error)),
    );
    return () => {
      current = false;
    };
  }, [code]);

  const derivative = isDerivative(info);
  const tradable = info !== null && info.security_type !== 'IND';
  const account = accounts?.find((a) => a.isDefault && a.account_type === (derivative ? 'F' : 'S'));
  const shownPrice = priceType === 'MKT' ? 'MKT' : price || '?';
  const summary = `${action} ${quantity || '?'} × ${code} @ ${shownPrice}`;

  /** Any change of the order goes back to editing: the confirmation always names what will be sent. */
  function edit<T>(set: (value: T) => void) {
    return (value: T) => {
      priceIsReference.current = false;
      set(value);
      setStage('edit');
    };
  }

  function choosePriceType(next: 'LMT' | 'MKT') {
    setPriceType(next);
    // TAIFEX refuses a market order that rests (MKT with ROD); IOC is what a market order means.
    if (next === 'MKT' && orderType === 'ROD') setOrderType('IOC');
    setStage('edit');
  }

  function orderBody() {
    const order = {
      action,
      price: priceType === 'MKT' ? 0 : Number(price),
      quantity: Number(quantity),
      price_type: priceType,
      order_type: orderType,
    };
    return derivative
      ? { contract: { code }, futures_order: { ...order, octype } }
      : { contract: { code }, stock_order: { ...order, order_lot: lot, order_cond: condition } };
  }

  async function send() {
    setStage('sending');
    try {
      const trade = await client.orders.placeOrder(orderBody());
      setOutcome(outcomeOf(trade));
      onPlaced();
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) });
    }
    setStage('edit');
  }

  return (
    <Card
      id="ticket"
      title="Order ticket"
      span={4}
      actions={
        <span className="muted" data-testid="ticket-code">
          <strong className="mono">{code}</strong> {info?.name ?? ''}
        </span>
      }
    >
      {info && 'limit_down' in info ? (
        <p className="hint">
          Reference {formatPrice(info.reference)} · limits {formatPrice(info.limit_down)} – {formatPrice(info.limit_up)}
        </p>
      ) : null}
      <form
        className="ticket"
        onSubmit={(event) => {
          event.preventDefault();
          setOutcome(null);
          setStage('confirm');
        }}
      >
        <fieldset className="segmented" aria-label="Side">
          {(['Buy', 'Sell'] as const).map((side) => (
            <button
              key={side}
              type="button"
              className={`side ${side.toLowerCase()}`}
              aria-pressed={action === side}
              data-testid={`ticket-${side.toLowerCase()}`}
              onClick={() => edit(setAction)(side)}
            >
              {side}
            </button>
          ))}
        </fieldset>
        <div className="field-row">
          <Field label="Price type" htmlFor="ticket-price-type">
            <select
              id="ticket-price-type"
              data-testid="ticket-price-type"
              value={priceType}
              onChange={(event) => choosePriceType(event.target.value as 'LMT' | 'MKT')}
            >
              <option value="LMT">LMT (limit)</option>
              <option value="MKT">MKT (market)</option>
            </select>
          </Field>
          <Field label="Order type" htmlFor="ticket-order-type">
            <select
              id="ticket-order-type"
              data-testid="ticket-order-type"
              value={orderType}
              onChange={(event) => edit(setOrderType)(event.target.value as 'ROD' | 'IOC' | 'FOK')}
            >
              <option value="ROD">ROD</option>
              <option value="IOC">IOC</option>
              <option value="FOK">FOK</option>
            </select>
          </Field>
        </div>
        <div className="field-row">
          <Field label="Price" htmlFor="ticket-price">
            <div className="with-button">
              <input
                id="ticket-price"
                data-testid="ticket-price"
                inputMode="decimal"
                value={priceType === 'MKT' ? '' : price}
                placeholder={priceType === 'MKT' ? 'market' : ''}
                disabled={priceType === 'MKT'}
                onChange={(event) => edit(setPrice)(event.target.value)}
              />
              <button
                type="button"
                title="Use the last price"
                disabled={priceType === 'MKT'}
                onClick={() => {
                  const last = quoteBook.get(code).last;
                  if (last !== null) edit(setPrice)(String(last));
                }}
              >
                Last
              </button>
            </div>
          </Field>
          <Field label={`Quantity (${quantityUnit(info, lot === 'IntradayOdd')})`} htmlFor="ticket-quantity">
            <input
              id="ticket-quantity"
              data-testid="ticket-quantity"
              inputMode="numeric"
              value={quantity}
              onChange={(event) => edit(setQuantity)(event.target.value)}
            />
          </Field>
        </div>
        {derivative ? (
          <Field label="Open / close" htmlFor="ticket-octype">
            <select
              id="ticket-octype"
              value={octype}
              onChange={(event) => edit(setOctype)(event.target.value as typeof octype)}
            >
              <option value="Auto">Auto</option>
              <option value="New">New position</option>
              <option value="Cover">Cover</option>
              <option value="DayTrade">Day trade</option>
            </select>
          </Field>
        ) : (
          <div className="field-row">
            <Field label="Lot" htmlFor="ticket-lot">
              <select id="ticket-lot" value={lot} onChange={(event) => edit(setLot)(event.target.value as typeof lot)}>
                <option value="Common">Board lot</option>
                <option value="IntradayOdd">Intraday odd lot</option>
              </select>
            </Field>
            <Field label="Condition" htmlFor="ticket-condition">
              <select
                id="ticket-condition"
                value={condition}
                onChange={(event) => edit(setCondition)(event.target.value as typeof condition)}
              >
                <option value="Cash">Cash</option>
                <option value="MarginTrading">Margin</option>
                <option value="ShortSelling">Short</option>
              </select>
            </Field>
          </div>
        )}
        <p className="hint">
          Account {account ? `${account.account_type} ${accountKey(account)} (default)` : '…'}
          {info?.security_type === 'IND' ? ' · an index cannot be traded' : ''}
        </p>
        {stage === 'edit' ? (
          <button type="submit" className="primary wide" data-testid="ticket-review" disabled={!tradable}>
            Review {summary}
          </button>
        ) : (
          <div className="confirm-row">
            <button
              type="button"
              className={`wide confirm ${action.toLowerCase()}`}
              data-testid="ticket-confirm"
              disabled={stage === 'sending'}
              onClick={() => void send()}
            >
              {stage === 'sending' ? 'Sending…' : `Confirm ${summary}`}
            </button>
            <button type="button" className="ghost" disabled={stage === 'sending'} onClick={() => setStage('edit')}>
              Back
            </button>
          </div>
        )}
      </form>
      {outcome ? (
        <p
          className={outcome.ok ? 'result-line' : 'error-line'}
          role={outcome.ok ? 'status' : 'alert'}
          data-testid="ticket-result"
        >
          {outcome.text}
          {outcome.also?.map((message) => (
            <span key={message} className="also-line" data-testid="ticket-also">
              also: {message}
            </span>
          ))}
        </p>
      ) : null}
      {infoError ? <p className="error-line">{infoError}</p> : null}
    </Card>
  );
}
