// Serialize once: the catalog's info objects are immutable for a listing day, so their JSON is kept with them.

const serialized = new WeakMap<object, string>();

export function jsonOnce(value: object): string {
  let json = serialized.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    serialized.set(value, json);
  }
  return json;
}
