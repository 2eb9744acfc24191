// How the client reaches the gateway: a transport sends one request and hands back the answer, read whole or as a
// stream of text. The default one is fetch (Node 20 and browsers); the CLI brings its own over the Unix socket.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TransportRequest {
  method: Method;
  /** The path with its query string, e.g. `/api/v1/data/contracts?security_type=STK`. */
  path: string;
  headers: Record<string, string>;
  /**
   * JSON text (with a `content-type: application/json` header), or a body the transport sends as it is (a
   * FormData or Blob for fetch, the CLI's streamed multipart body for its own).
   */
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** Let the request outlive the page (fetch's keepalive). */
  keepalive?: boolean | undefined;
  /** An event stream: read as it comes, for as long as it lasts (no time limit on the answer). */
  streaming?: boolean;
}

export interface TransportResponse {
  status: number;
  contentType: string;
  /** A header of the answer (any case), undefined when absent; a transport without it gives no paging cursor. */
  header?(name: string): string | undefined;
  /** The whole body as text. */
  text(): Promise<string>;
  /** The body as text, chunk by chunk, as it arrives; ends when the server closes it. */
  chunks(): AsyncIterable<string>;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

export interface FetchTransportOptions {
  /** Where the gateway is, e.g. `http://127.0.0.1:8000`; empty (the default) for the page's own origin. */
  baseUrl?: string;
  /** The fetch to use (globalThis.fetch unless given). */
  fetch?: typeof fetch;
}

/** A transport over fetch: Node 20 and every current browser. */
export function fetchTransport(options: FetchTransportOptions = {}): Transport {
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  const send = options.fetch ?? ((input: string, init?: RequestInit) => globalThis.fetch(input, init));
  return async (request) => {
    const init: RequestInit = { method: request.method, headers: request.headers };
    if (request.body !== undefined) init.body = request.body as NonNullable<RequestInit['body']>;
    if (request.signal !== undefined) init.signal = request.signal;
    if (request.keepalive) init.keepalive = true;
    // A browser must not answer an event stream from its cache.
    if (request.streaming) Object.assign(init, { cache: 'no-store' });
    const response = await send(`${base}${request.path}`, init);
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      header: (name) => response.headers.get(name) ?? undefined,
      text: () => response.text(),
      chunks: () => textChunks(response),
    };
  };
}

/** The chunks of a fetch answer's body as text (a reader loop: not every browser iterates a ReadableStream). */
async function* textChunks(response: Response): AsyncIterable<string> {
  if (response.body === null) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      finished = done;
      if (done) return;
      yield value;
    }
  } finally {
    // A reader that stops early lets go of the connection.
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
