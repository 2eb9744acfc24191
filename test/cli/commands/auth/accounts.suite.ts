import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/errors.js';
import { envelope, fakeDaemon } from '../../../helpers/cli.js';

const account = (account_type: string, account_id: string) => ({
  account_type,
  person_id: 'A123456789',
  broker_id: account_type === 'S' ? '9A95' : 'F002000',
  account_id,
  signed: true,
  username: 'sjgate',
});
const ACCOUNTS = [account('S', '1111111'), account('S', '2222222'), account('F', '3333333')];

describe('sjgate auth accounts against a fake daemon', () => {
  let answersDefault = true;
  const daemon = fakeDaemon(({ url }) => {
    if (url === '/api/v1/auth/accounts') return [200, ACCOUNTS];
    if (!answersDefault) return envelope('ROUTE_NOT_FOUND', 'no route');
    if (url === '/api/v1/auth/default_account?account_type=S') return [200, ACCOUNTS[1]];
    if (url === '/api/v1/auth/default_account?account_type=F') return [200, ACCOUNTS[2]];
    return envelope('ROUTE_NOT_FOUND', `no route ${url}`);
  });
  before(() => daemon.start());
  after(() => daemon.stop());

  test('a * marks the default account of each type; JSON is the list as the API answers it', async () => {
    const run = await daemon.sjgate('auth', 'accounts');
    assert.equal(run.code, EXIT.ok, run.stderr);
    const rows = run.stdout.split('\n').filter((line) => /\d{7}/.test(line));
    assert.deepEqual(
      rows.map((line) => [/^│ (\*| ) /.exec(line)?.[1], /\d{7}/.exec(line)?.[0]]),
      [
        [' ', '1111111'],
        ['*', '2222222'],
        ['*', '3333333'],
      ],
    );
    const json = await daemon.sjgate('auth', 'accounts', '--format', 'json');
    assert.deepEqual(JSON.parse(json.stdout), ACCOUNTS);
  });

  test('a daemon that cannot say the default marks none and still lists the accounts', async () => {
    answersDefault = false;
    const run = await daemon.sjgate('auth', 'accounts');
    answersDefault = true;
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.doesNotMatch(run.stdout, /│ \* │/);
    assert.match(run.stdout, /2222222/);
  });
});
