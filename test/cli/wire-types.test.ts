// The wire types the CLI reads (src/contract/wire.ts) against the server's schemas, at compile time
// (tsc -p tsconfig.test.json): the static type of each schema must be assignable to the wire type, so a field
// renamed, dropped or retyped in a schema breaks the build of this file. The types test/contract.test.ts checks
// are not repeated here.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Static } from 'typebox';
import type * as Wire from '../../src/contract/wire.js';
import type { AppDeleteResponse, AppUploadResponse } from '../../src/server/schemas/apps.js';
import type { ContractListSchema, ContractSchema, TickBandRuleSchema } from '../../src/server/schemas/contracts.js';
import type { ProfitLossSummarySchema } from '../../src/server/schemas/portfolio.js';
import type { SubscriptionResponseSchema } from '../../src/server/schemas/streams.js';

type Reads<Answer extends Read, Read> = [Answer, Read];
export type CliWireTypesMatchTheSchemas = [
  Reads<Static<typeof ContractSchema>, Wire.Contract>,
  Reads<Static<typeof ContractListSchema>, Wire.ContractList>,
  Reads<Static<typeof TickBandRuleSchema>, Wire.TickBandRule>,
  Reads<Static<typeof SubscriptionResponseSchema>, Wire.SubscribeAnswer>,
  Reads<Static<typeof AppUploadResponse>, Wire.AppUploaded>,
  Reads<Static<typeof AppDeleteResponse>, Wire.AppDeleted>,
  Reads<Static<typeof ProfitLossSummarySchema>, Wire.ProfitLossSummary>,
];

test('the wire types of the CLI are checked at compile time', () => {
  assert.ok(true);
});
