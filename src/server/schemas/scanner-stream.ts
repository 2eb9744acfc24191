// The bodies of POST /stream/subscribe/scanner and /unsubscribe/scanner (1.7.1), and what the `scanner` SSE event
// carries (documented in the OpenAPI description; the stream itself is text/event-stream).

import Type from 'typebox';
import { SCANNER_EXCHANGES, SCANNER_RULES, SCANNER_STATES } from '../../domain/scanner-rules.js';

// Bounded like every number a client sends; a value other than the preset's is refused by the rules with the preset.
const presetParameter = (description: string) =>
  Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: 1_000_000 }), Type.String({ maxLength: 16 })], { description }),
  );

/** A preset rule as the official server writes it ({kind, id}), or as the SDK's preset object shows it. */
const PresetRuleSchema = Type.Object(
  {
    kind: Type.Optional(Type.Literal('preset_rule')),
    id: Type.String({ maxLength: 32, description: `the rule: ${SCANNER_RULES.join(', ')}` }),
    formula_version: presetParameter('1, the only version'),
    window_ms: presetParameter('price-move rules: 1000 (fixed)'),
    change_percent: presetParameter('price-move rules: 1 (fixed)'),
    minimum_tick_change: presetParameter('price-move rules: 3 (fixed)'),
    cooldown_ms: presetParameter('price-move rules 1000, volume_burst 5000 (fixed)'),
  },
  { additionalProperties: false, title: 'ScannerPresetRule' },
);

export const ScannerSubscriptionBodySchema = Type.Object(
  {
    scanner: Type.Union(
      [
        Type.String({
          maxLength: 32,
          description: `${SCANNER_STATES.map((s) => `"${s}"`).join(' or ')} (a state); a bare rule id is taken too`,
        }),
        PresetRuleSchema,
      ],
      { description: 'a state scanner ("simtrade", "suspend") or {kind: "preset_rule", id: <rule>}' },
    ),
    region: Type.Enum(['TW'], { description: 'TW only' }),
    security_type: Type.Enum(['STK'], { description: 'STK only: the scanner covers stocks' }),
    exchange: Type.Enum([...SCANNER_EXCHANGES], { description: 'TSE or OTC: the exchange whose stocks it scans' }),
  },
  { additionalProperties: false, title: 'ScannerSubscriptionRequest' },
);

export const ScannerSubscriptionResponseSchema = Type.Object(
  { success: Type.Boolean(), message: Type.String() },
  { title: 'CapabilitySubscriptionResponse' },
);

/** A held scanner subscription, as GET /stream/subscriptions lists it. */
export const HeldScannerSchema = Type.Object(
  {
    scanner: Type.String({ description: 'the rule id or the state' }),
    region: Type.String(),
    security_type: Type.String(),
    exchange: Type.String(),
  },
  { title: 'ScannerSubscription' },
);
