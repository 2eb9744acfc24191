// The frame every card shares: a titled section with optional actions on the right of its header.

import type { ReactNode } from 'react';

interface CardProps {
  id: string;
  title: string;
  /** Grid columns of 12 the card spans on a wide screen. */
  span: 3 | 4 | 5 | 6 | 7 | 8 | 12;
  actions?: ReactNode;
  children: ReactNode;
}

export function Card({ id, title, span, actions, children }: CardProps) {
  return (
    <section className={`card span-${span}`} data-testid={`card-${id}`} aria-labelledby={`${id}-title`}>
      <header className="card-header">
        <h2 id={`${id}-title`}>{title}</h2>
        {actions}
      </header>
      <div className="card-body">{children}</div>
    </section>
  );
}

/** A line for an error answer, shown as the server worded it. */
export function ErrorLine({ message, testId }: { message: string | null | undefined; testId?: string }) {
  if (!message) return null;
  return (
    <p className="error-line" role="alert" data-testid={testId}>
      {message}
    </p>
  );
}

/** The one row of a table with nothing to show, across its columns. */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="muted">
        {children}
      </td>
    </tr>
  );
}
