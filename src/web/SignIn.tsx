// Sign-in for a gateway bound beyond loopback: it answers 401 until requests carry `Bearer api_key:secret_key`.
// The token is kept in sessionStorage, so it lives only as long as this tab.

import { type FormEvent, useState } from 'react';
import { auth, dashboardClient, messageOf } from './api';

export function SignIn() {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const candidate = token.trim();
    if (!candidate.includes(':')) {
      setError('enter the key as api_key:secret_key');
      return;
    }
    try {
      await dashboardClient(candidate).auth.accounts();
    } catch (failure) {
      setError(messageOf(failure));
      return;
    }
    auth.save(candidate);
    location.reload();
  }

  return (
    <section className="signin" data-testid="signin" aria-labelledby="signin-title">
      <h2 id="signin-title">Sign in</h2>
      <p>
        This gateway is reachable from other machines, so it asks for its keys. Enter <code>api_key:secret_key</code>{' '}
        (SJ_API_KEY and SJ_SEC_KEY); they stay in this tab only.
      </p>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <label className="sr-only" htmlFor="signin-token">
          API key and secret key
        </label>
        <input
          id="signin-token"
          type="password"
          autoComplete="off"
          placeholder="api_key:secret_key"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          data-testid="signin-token"
        />
        <button type="submit" className="primary" data-testid="signin-submit">
          Sign in
        </button>
      </form>
      {error ? (
        <p className="error-line" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
