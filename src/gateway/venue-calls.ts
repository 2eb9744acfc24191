// The calls the gateway makes to its venue, measured for the monitor: every asynchronous method of a port, timed from
// the call until its promise settles. Nothing is measured while nobody listens, and a call's arguments and answer
// are never looked at.
//
// A call is tagged with the work it was made for by what is in flight when it is made (`inFlight`, which the server
// keeps with the origins of the requests it is answering): the one origin in flight, `null` when nothing is (the
// venue's own timers, a restore at start), or `mixed` when requests of several origins are. Not AsyncLocalStorage:
// on Node 20 a store in use makes every promise of the process slower (promise hooks), a tax on all traffic.

import { performance } from 'node:perf_hooks';
import { DomainError } from '../domain/errors.js';

export interface VenueCall {
  /** The port (`contracts`, `marketData`, `orders`, ...). */
  port: string;
  /** The method called (`get`, `ticks`, `place`, ...). */
  operation: string;
  /** `port.operation`: one string per method, made once, not per call. */
  endpoint: string;
  /** The origin of the work in flight when it was made; `mixed` for several, null for none. */
  tag: string | null;
  durationUs: number;
  /** The error's kind when the call failed with a DomainError, `INTERNAL` for any other failure; null when it answered. */
  failure: string | null;
}

export class VenueCalls {
  private listener: ((call: VenueCall) => void) | null = null;
  /** Requests being answered, by origin; the server keeps it. */
  readonly inFlight = new Map<string, number>();

  /** Counts a request of `tag` in flight until the function returned is called (once). */
  begin(tag: string): () => void {
    this.inFlight.set(tag, (this.inFlight.get(tag) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.inFlight.get(tag) ?? 1) - 1;
      if (left > 0) this.inFlight.set(tag, left);
      else this.inFlight.delete(tag);
    };
  }

  /** Sets the one listener (null stops measuring). */
  listen(listener: ((call: VenueCall) => void) | null): void {
    this.listener = listener;
  }

  /** The port, with each of its methods that returns a promise measured while a listener is set. */
  meter<T extends object>(port: string, target: T): T {
    const wrappers = new Map<PropertyKey, unknown>();
    return new Proxy(target, {
      get: (object, property, receiver) => {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        let wrapper = wrappers.get(property);
        if (!wrapper) {
          wrapper = this.wrap(port, property, object, value as (...args: unknown[]) => unknown);
          wrappers.set(property, wrapper);
        }
        return wrapper;
      },
    });
  }

  private tag(): string | null {
    if (this.inFlight.size === 0) return null;
    if (this.inFlight.size > 1) return 'mixed';
    return this.inFlight.keys().next().value ?? null;
  }

  private wrap(port: string, operation: string, object: object, method: (...args: unknown[]) => unknown) {
    const endpoint = `${port}.${operation}`;
    return (...args: unknown[]): unknown => {
      const listener = this.listener;
      if (!listener) return method.apply(object, args);
      const started = performance.now();
      const tag = this.tag();
      // Made only for a call that is measured: a synchronous answer (the listing's key) allocates nothing here.
      const reporter = () => (failure: string | null) => {
        const durationUs = Math.round((performance.now() - started) * 1000);
        try {
          listener({ port, operation, endpoint, tag, durationUs, failure });
        } catch {
          // the monitor's trouble is not the caller's
        }
      };
      let result: unknown;
      try {
        result = method.apply(object, args);
      } catch (error) {
        // A port method that refuses before it goes asynchronous (an unknown code) is a failed call too.
        reporter()(failureOf(error));
        throw error;
      }
      if (!(result instanceof Promise)) return result;
      const report = reporter();
      result.then(
        () => report(null),
        (error: unknown) => report(failureOf(error)),
      );
      return result;
    };
  }
}

const failureOf = (error: unknown) => (error instanceof DomainError ? error.kind : 'INTERNAL');
