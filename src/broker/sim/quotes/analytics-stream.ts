// The index analytics streams of an index source: at each update of the index, one event per subscription, each its
// ranking or projection of the same decomposition (computed once for all of them).

import type { IndexDecomposition } from '../../../domain/index-components.js';
import { INDEX_ANALYTICS_EVENTS, type IndexAnalyticsType, type MarketEvent } from '../../../domain/quotes.js';
import type { AnalyticsMoment } from './analytics-payloads.js';
import { indexComponents, indexContribution, industryContribution } from './analytics-payloads.js';
import type { Stream } from './channel.js';
import type { QuoteContext } from './day-context.js';
import type { DayState } from './day-state.js';

export function showIndexAnalytics(
  emit: (event: MarketEvent) => void,
  context: QuoteContext,
  stream: Stream,
  decomposition: () => IndexDecomposition,
  shown: { state: DayState; simtrade: boolean },
): void {
  const type = stream.quoteType as IndexAnalyticsType;
  const name = INDEX_ANALYTICS_EVENTS[type];
  const epochUs = shown.state.last.timeUs;
  const members = context.index!.members();
  const moment: AnalyticsMoment = {
    code: context.code,
    exchange: context.exchange,
    epochUs,
    referenceDate: context.index!.previousDay,
    phase: members.phaseAt(epochUs / 1000),
    simtrade: shown.simtrade,
  };
  if (type === 'IndustryContribution') {
    emit({ name, data: industryContribution(moment, decomposition()) });
    return;
  }
  for (const view of stream.views?.values() ?? []) {
    if (type === 'IndexContribution' && view.ranking) {
      emit({ name, data: indexContribution(moment, decomposition(), view.ranking) });
    } else if (type === 'IndexComponents' && view.projection) {
      emit({ name, data: indexComponents(moment, decomposition(), view.projection) });
    }
  }
}
