// The daemon's error messages speak to API clients (`GET /api/v1/data/kbars`, `quote_type Quote`); the CLI shows
// them in its own terms: the sjgate command and its flags. One table, from the API's words to the CLI's.

/** An endpoint the daemon's messages name, and the command that calls it. */
const COMMAND_OF_ENDPOINT: readonly [RegExp, (query: URLSearchParams) => string][] = [
  [/^GET \/api\/v1\/data\/contracts\/warrants$/, warrantsCommand],
  [/^GET \/api\/v1\/data\/contracts\/futures\/roots$/, () => 'sjgate contracts futures-roots'],
  [/^GET \/api\/v1\/data\/contracts\/options\/roots$/, () => 'sjgate contracts option-roots'],
  [/^GET \/api\/v1\/data\/kbars$/, () => 'sjgate data kbars'],
  [/^GET \/api\/v1\/data\/ticks$/, () => 'sjgate data ticks'],
  [/^(GET|POST) \/api\/v1\/order\/trades$/, () => 'sjgate order list'],
  [/^GET \/api\/v1\/health$/, () => 'sjgate server status'],
];

function warrantsCommand(query: URLSearchParams): string {
  const underlying = query.get('underlying_code');
  const code = query.get('code');
  return ['sjgate contracts warrants', underlying && `--underlying ${underlying}`, code && `--code ${code}`]
    .filter(Boolean)
    .join(' ');
}

/** Fields of request bodies the messages name, and the flag that sets each. */
const FLAG_OF_FIELD: readonly [RegExp, (value: string) => string][] = [
  [/\bquote_type (Tick|BidAsk|Quote|KBar|CalculatedIndex)\b/g, (value) => `--quote-type ${snakeCase(value)}`],
  [/\bintraday_odd (true|false)\b/g, (value) => (value === 'true' ? '--intraday-odd' : 'no --intraday-odd')],
];

const snakeCase = (value: string) => value.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

const ENDPOINT = /\b(GET|POST|PUT|DELETE) (\/api\/v1\/[A-Za-z0-9_/.-]+)(\?[^\s,;)]*)?/g;

/** The message with each endpoint it names as the sjgate command (`use sjgate data kbars`), and fields as flags. */
export function inCliTerms(message: string): string {
  let text = message.replace(ENDPOINT, (whole, method: string, path: string, query: string | undefined) => {
    const found = COMMAND_OF_ENDPOINT.find(([pattern]) => pattern.test(`${method} ${path}`));
    return found === undefined ? whole : `\`${found[1](new URLSearchParams(query ?? ''))}\``;
  });
  for (const [pattern, flag] of FLAG_OF_FIELD) text = text.replace(pattern, (_whole, value: string) => flag(value));
  return text;
}
