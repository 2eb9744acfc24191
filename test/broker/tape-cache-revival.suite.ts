// A tape evicted from the tape cache but still alive is given back when asked again (issue 22): the cache watches
// an evicted tape for its collection once, and stops when it takes it back, so a hot tape cycling between kept and
// evicted leaves no registrations behind.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { TapeCache } from '../../src/broker/sim/market/tape-cache.js';

describe('tape cache revival', () => {
  const { register, unregister } = FinalizationRegistry.prototype;
  const watched = new Set<object>();
  FinalizationRegistry.prototype.register = function (target: object, held: unknown, token?: object) {
    assert.ok(!watched.has(target), 'a tape is watched once at a time');
    watched.add(target);
    return register.call(this, target, held, token);
  };
  FinalizationRegistry.prototype.unregister = function (token: object) {
    watched.delete(token);
    return unregister.call(this, token);
  };
  after(() => Object.assign(FinalizationRegistry.prototype, { register, unregister }));

  test('a tape evicted and taken back a hundred times is watched only while evicted', () => {
    // Two tapes of 1,600 bytes in a budget of one: each get evicts the other, which the test holds.
    const cache = new TapeCache(1000, 1600);
    const tapes = ['a', 'b'].map((key) => ({ key, tape: { times: new Float64Array(200) } as never }));
    let builds = 0;
    const get = (i: number) =>
      cache.get(tapes[i % 2]!.key, () => {
        builds++;
        return tapes[i % 2]!.tape;
      });
    for (let i = 0; i < 100; i++) assert.equal(get(i), tapes[i % 2]!.tape);
    assert.equal(builds, 2, 'each built once, then given back');
    assert.equal(watched.size, 1, 'only the one evicted now is watched');
    assert.equal(cache.keptBytes, 1600);
  });
});
