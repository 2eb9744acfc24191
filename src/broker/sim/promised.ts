// The simulator answers at once; the venue port is asynchronous. This turns chosen methods of a simulator part into
// functions that return a promise, and a synchronous throw into a rejection, so a caller sees one kind of failure.

type Promised<T, K extends keyof T> = {
  [P in K]: T[P] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

export function promised<T extends object, K extends keyof T>(target: T, names: readonly K[]): Promised<T, K> {
  const facade: Record<PropertyKey, unknown> = {};
  for (const name of names) {
    const method = target[name] as (...args: unknown[]) => unknown;
    facade[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(method.apply(target, args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return facade as Promised<T, K>;
}
