// `sjgate agent token`: capabilities for the agent harness (SJ_AGENT_HARNESS), which protected calls carry in
// X-Shioaji-Agent-Capability when it is enforced.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerToken } from './token.js';

export function registerAgent(program: Command, env: CliEnv): void {
  const agent = program
    .command('agent')
    .description('the agent harness: mint the capability a protected call needs when it is enforced');
  registerToken(agent, env);
}
