// Schema pieces shared by route files.

import Type from 'typebox';
import { ErrorEnvelope } from '../plugins/errors.js';

/** The error responses a route documents, besides its success response. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorEnvelope]));
}

export const CodeParam = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 40, description: 'product code, e.g. 2330, TXFR1, IX0001' }),
});
