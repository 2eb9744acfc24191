// The calls the gateway makes to its venue, measured for the monitor: every asynchronous method of a port, timed from
// the call until its promise settles. A call carries the tag of the work it was made for (`runAs`, which the server
// sets to the origin of the request being answered); a call made outside any (a restore, the venue's own timers) has
// none. Nothing is measured while nobody listens, and a call's arguments and answer are never looked at.

import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { DomainError } from '../domain/errors.js';

export interface VenueCall {
  /** The port (`contracts`, `marketData`, `orders`, ...). */
  port: string;
  /** The method called (`get`, `ticks`, `place`, ...). */
  operation: string;
  /** The tag of the work it was made for; null outside any. */
  tag: string | null;
  durationUs: number;
  /** The error's kind when the call failed with a DomainError, `INTERNAL` for any other failure; null when it answered. */
  failure: string | null;
}

export class VenueCalls {
  private readonly context = new AsyncLocalStorage<string>();
  private listener: ((call: VenueCall) => void) | null = null;

  /** Runs `work` so that the venue calls it makes (also after it awaits) carry `tag`. */
  runAs<T>(tag: string, work: () => T): T {
    return this.context.run(tag, work);
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

  private wrap(port: string, operation: string, object: object, method: (...args: unknown[]) => unknown) {
    return (...args: unknown[]): unknown => {
      const listener = this.listener;
      if (!listener) return method.apply(object, args);
      const started = performance.now();
      const tag = this.context.getStore() ?? null;
      const report = (failure: string | null) => {
        const durationUs = Math.round((performance.now() - started) * 1000);
        try {
          listener({ port, operation, tag, durationUs, failure });
        } catch {
          // the monitor's trouble is not the caller's
        }
      };
      let result: unknown;
      try {
        result = method.apply(object, args);
      } catch (error) {
        // A port method that refuses before it goes asynchronous (an unknown code) is a failed call too.
        report(failureOf(error));
        throw error;
      }
      if (!(result instanceof Promise)) return result;
      result.then(
        () => report(null),
        (error: unknown) => report(failureOf(error)),
      );
      return result;
    };
  }
}

const failureOf = (error: unknown) => (error instanceof DomainError ? error.kind : 'INTERNAL');
