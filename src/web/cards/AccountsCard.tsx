// Accounts: the linked stock and futures accounts; the default of each type is what orders use when they name none.

import { ACCOUNT_TYPE_NAMES, type AccountView, accountKey } from '../accounts';
import { Card, ErrorLine } from './Card';

export function AccountsCard({ accounts, error }: { accounts: AccountView[] | null; error: string | null }) {
  return (
    <Card id="accounts" title="Accounts" span={4}>
      {accounts === null && !error ? <p className="muted">Loading…</p> : null}
      {accounts?.length === 0 ? <p className="muted">No accounts.</p> : null}
      <ul className="account-list">
        {accounts?.map((account) => (
          <li key={accountKey(account)} data-testid={`account-${account.account_id}`}>
            <span className={`tag type-${account.account_type}`}>{ACCOUNT_TYPE_NAMES[account.account_type]}</span>
            <span className="mono">{accountKey(account)}</span>
            <span className="muted ellipsis">{account.username}</span>
            {account.isDefault ? (
              <span className="tag default" data-testid="account-default">
                default
              </span>
            ) : null}
            {account.signed ? null : <span className="tag warn">not signed</span>}
          </li>
        ))}
      </ul>
      <ErrorLine message={error} />
    </Card>
  );
}
