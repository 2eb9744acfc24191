// The agent harness's state and its switch. PATCH needs a capability for update_agent_harness whenever a secret is
// configured (plugins/agent-harness.ts checks it before this route runs); POST is answered 405, as officially.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { AGENT_ROUTES } from '../../contract/paths.js';
import type { AgentHarness } from '../plugins/agent-harness.js';
import { sendError } from '../plugins/errors.js';
import { errorResponses } from '../schemas/common.js';

const tags = ['agent'];

export const AgentHarnessPatchSchema = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });

export const AgentHarnessStateSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'whether protected calls need a capability now' }),
    mode: Type.Enum(['off', 'production', 'all'], { description: 'SJ_AGENT_HARNESS' }),
    capability_version: Type.Integer(),
    capability_header: Type.String(),
    digest_scheme: Type.String(),
    audience: Type.String({ description: "this daemon's audience, hex; new at every start" }),
    max_ttl_seconds: Type.Integer(),
    bootstrap: Type.String({ description: 'how the secret was given: file, or none' }),
  },
  { title: 'AgentHarness' },
);

export function agentHarnessRoutes(harness: AgentHarness): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      AGENT_ROUTES.harness,
      { schema: { tags, summary: 'The agent harness', response: { 200: AgentHarnessStateSchema } } },
      async () => harness.state(),
    );

    app.patch(
      AGENT_ROUTES.harness,
      {
        schema: {
          tags,
          summary: 'Turn the agent harness on or off',
          description:
            'Needs X-Shioaji-Agent-Capability for update_agent_harness (op 9) whenever the daemon has a secret, ' +
            'even while the harness is off.',
          body: AgentHarnessPatchSchema,
          response: { 200: AgentHarnessStateSchema, ...errorResponses(400, 403, 422) },
        },
      },
      async ({ body }) => harness.switchTo(body.enabled),
    );

    app.post(AGENT_ROUTES.harness, { schema: { hide: true } }, async (_request, reply) => {
      reply.header('allow', 'GET, PATCH');
      return sendError(reply, 'METHOD_NOT_ALLOWED', `POST ${AGENT_ROUTES.harness} is not supported; use GET or PATCH`);
    });
  };
}
