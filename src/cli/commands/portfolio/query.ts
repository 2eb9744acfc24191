// The action every portfolio command has: post the body its flags make, print the answer.

import { type PostMethod, postTo } from '../../client.js';
import type { CliEnv } from '../../context.js';
import { action } from '../../context.js';
import type { PortfolioOptions, PortfolioRequest } from './requests.js';

export const portfolioQuery = <T>(
  env: CliEnv,
  method: PostMethod,
  body: (options: PortfolioOptions) => PortfolioRequest,
  human: (value: T, color: boolean) => string,
) =>
  action<PortfolioOptions>(env, async (cli, options) => {
    const request = body(options);
    const answer = await cli.call((client) => postTo<T>(client, method, request));
    cli.emit(answer, human);
  });
