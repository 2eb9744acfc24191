// Serialize once: the catalog's info objects are immutable for a listing day, so their UTF-8 JSON is kept with
// them and written as is.

const serialized = new WeakMap<object, Buffer>();

export function jsonOnce(value: object): Buffer {
  let json = serialized.get(value);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify(value));
    serialized.set(value, json);
  }
  return json;
}
