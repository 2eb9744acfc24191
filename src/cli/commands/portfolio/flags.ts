// The flags of the portfolio commands: account type, unit, detail id and the date range.

import { Option } from 'commander';
import type { PositionUnit } from '../../../domain/portfolio.js';
import { dateOrToday, enumValue, integerIn, kebabCase, oneOf } from '../../parsers.js';
import { ACCOUNT_TYPES } from './requests.js';

export const POSITION_UNITS = ['Common', 'Share'] as const satisfies readonly PositionUnit[];

export const accountTypeOption = () =>
  new Option('--account-type <S|F>', 'S stock or F futures (default: S, or the type of --account)').argParser(
    oneOf(ACCOUNT_TYPES),
  );
export const unitOption = () =>
  new Option(
    '--unit <UNIT>',
    `${POSITION_UNITS.map(kebabCase).join(' or ')}: stocks in lots or in shares, odd lots included (default common)`,
  ).argParser(enumValue(POSITION_UNITS));
export const detailIdOption = (of: string) =>
  new Option('--detail-id <ID>', `the id of a row of \`portfolio ${of}\``)
    .argParser(integerIn(0))
    .makeOptionMandatory();
export const beginDateOption = () =>
  new Option('--begin-date <DATE>', 'first day, YYYY-MM-DD or today (default: today in Taiwan)').argParser(dateOrToday);
export const endDateOption = () =>
  new Option('--end-date <DATE>', 'last day, YYYY-MM-DD or today (default: today in Taiwan)').argParser(dateOrToday);
