// Child process of crash.test.ts: writes orders to the journal at argv[2] as fast as it can, each with its
// status change, deal, event and cash entry in one transaction, and acknowledges an order by printing its id
// only after that transaction returned and is on disk (Journal.synced), as the gateway does. It runs until it is
// killed.
import { Journal } from '../../src/store/journal.js';

const path = process.argv[2];
if (!path) throw new Error('usage: crash-writer.ts <journal path>');
const journal = Journal.open(path);

for (let n = 1; ; n++) {
  const id = `O${String(n).padStart(6, '0')}`;
  const at = 1_750_000_000_000 + n;
  journal.transaction(() => {
    journal.orders.save({
      id,
      accountKey: 'S1',
      code: '2330',
      status: 'Filled',
      placedAt: at,
      updatedAt: at,
      open: false,
      record: { id, quantity: 1 },
    });
    journal.orders.addStatusChange(id, at, 'Filled', '');
    journal.orders.addDeal({
      orderId: id,
      seq: 1,
      accountKey: 'S1',
      code: '2330',
      action: 'Buy',
      price: 580,
      quantity: 1,
      at,
      record: {},
    });
    journal.events.append({ at, kind: 'StockDeal', accountKey: 'S1', payload: { orderId: id } });
    journal.ledger.addCashEntry({
      accountKey: 'S1',
      at,
      amount: -580_000,
      reason: 'buy',
      ref: id,
      settleDate: '2025-06-17',
    });
  });
  await journal.synced();
  // Writes to a pipe are synchronous on Linux: once this returns, the parent can read the acknowledgement.
  process.stdout.write(`${id}\n`);
}
