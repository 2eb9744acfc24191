// The action every portfolio command has: post the body its flags make, print the answer.

import type { CliEnv } from '../../context.js';
import { action } from '../../context.js';
import type { PortfolioOptions, PortfolioRequest } from './requests.js';

export const portfolioQuery = <T>(
  env: CliEnv,
  path: string,
  body: (options: PortfolioOptions) => PortfolioRequest,
  human: (value: T, color: boolean) => string,
) =>
  action<PortfolioOptions>(env, async (cli, options) => {
    const request = body(options);
    const answer = await cli.call((client) => client.post<T>(path, request));
    cli.emit(answer, human);
  });
