// The Trellis JavaScript client: one method per endpoint; each POSTs its body as JSON and resolves to
// the parsed answer, or rejects with a TrellisProblem carrying the problem details and their pointers.
// No dependencies; runs in browsers and in Node 18+ (global fetch). Trellis serves this file at
// GET /clients/trellis.mjs, so a page can `import { createClient } from '<base URL>/clients/trellis.mjs'`.

/** The feature paths, by method name (as in openapi.yaml's operationIds). `batch` takes
 * `{requests: [{path, body}, …]}` and answers `{responses: [{status, body}, …]}`, each entry as its endpoint
 * answers that body alone (a problem entry is not thrown: its status says what it is). */
export const endpoints = Object.freeze({
  outlineExpansion: '/v1/outline/expansion',
  outlineRows: '/v1/outline/rows',
  flowLayout: '/v1/flow/layout',
  sectionsToggle: '/v1/sections/toggle',
  drawerState: '/v1/drawer/state',
  textMeasure: '/v1/text/measure',
  textLayout: '/v1/text/layout',
  listLayout: '/v1/list/layout',
  batch: '/v1/batch',
});

// At most this many characters of a non-problem error body become the problem's detail.
const DETAIL_LIMIT = 1000;

/** An answer that is not 2xx: the problem details (RFC 9457) and, for a 422, every error's pointer. */
export class TrellisProblem extends Error {
  /**
   * @param {object} problem parsed problem details: type, title, status, detail, and errors for a 422
   * @param {{requestId?: string | null, path?: string, cause?: unknown}} [context]
   */
  constructor(problem, context = {}) {
    const title = [problem.status, problem.title].filter((part) => part != null && part !== '').join(' ');
    super(problem.detail ? `${title}: ${problem.detail}` : title || 'Trellis problem',
      context.cause === undefined ? undefined : { cause: context.cause });
    this.name = 'TrellisProblem';
    this.status = problem.status;
    this.problem = problem;
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    this.requestId = context.requestId ?? null;
    this.path = context.path;
  }
}

/**
 * A client for the Trellis service at `baseUrl` (e.g. "http://localhost:8080"; a trailing slash is fine).
 * `fetch` replaces the global fetch, `headers` are sent with every request, and `requestId` (a string,
 * or a function returning one per request) is sent as X-Request-Id.
 */
export function createClient({ baseUrl, fetch: fetchFunction, headers = {}, requestId } = {}) {
  if (baseUrl == null || String(baseUrl) === '') throw new TypeError('createClient needs a baseUrl');
  const base = String(baseUrl).replace(/\/+$/, '');
  const send = fetchFunction ?? globalThis.fetch;
  if (typeof send !== 'function') throw new TypeError('no fetch: pass createClient({fetch}) where there is no global fetch');

  async function post(path, body, options = {}) {
    // A string is JSON text already (sent unchanged); anything else is serialized with JSON.stringify.
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    if (text === undefined) throw new TypeError(`${path}: the body must be a JSON value`);
    const sent = new Headers(headers);
    for (const [name, value] of new Headers(options.headers ?? {})) sent.set(name, value);
    if (!sent.has('Content-Type')) sent.set('Content-Type', 'application/json');
    if (!sent.has('Accept')) sent.set('Accept', 'application/json, application/problem+json');
    const id = options.requestId ?? (typeof requestId === 'function' ? requestId() : requestId);
    if (id != null) sent.set('X-Request-Id', String(id));

    const response = await send(base + path, { method: 'POST', headers: sent, body: text, signal: options.signal });
    if (options.onResponse) options.onResponse(response);
    const answer = await response.text();
    if (response.ok) return JSON.parse(answer);
    throw problemOf(response, answer, path);
  }

  // GET /v1/fonts: the font faces text can be measured with.
  async function fonts(options = {}) {
    const sent = new Headers(headers);
    for (const [name, value] of new Headers(options.headers ?? {})) sent.set(name, value);
    const id = options.requestId ?? (typeof requestId === 'function' ? requestId() : requestId);
    if (id != null) sent.set('X-Request-Id', String(id));
    const response = await send(base + '/v1/fonts', { method: 'GET', headers: sent, signal: options.signal });
    if (options.onResponse) options.onResponse(response);
    const answer = await response.text();
    if (response.ok) return JSON.parse(answer);
    throw problemOf(response, answer, '/v1/fonts');
  }

  const client = { baseUrl: base, post, fonts };
  for (const [name, path] of Object.entries(endpoints)) {
    client[name] = (body, options) => post(path, body, options);
  }
  return Object.freeze(client);
}

/** The TrellisProblem for a failed answer: its problem+json when it is one, else one built from the status. */
function problemOf(response, text, path) {
  const requestId = response.headers.get('X-Request-Id');
  const contentType = response.headers.get('Content-Type') ?? '';
  if (/^application\/problem\+json\s*(;|$)/i.test(contentType)) {
    let parsed = null;
    try { parsed = JSON.parse(text); } catch { parsed = null; }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return new TrellisProblem({ ...parsed, status: parsed.status ?? response.status }, { requestId, path });
    }
  }
  return new TrellisProblem({
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: text.trim().slice(0, DETAIL_LIMIT),
  }, { requestId, path });
}

// ---- virtualized lists: one layout of POST /v1/list/layout (an entry of its `layouts`) in the shapes the
// libraries take. A row's slot is its height plus the gap below it (none below the last): libraries that
// stack items back to back without a gap of their own take slots, and the row is drawn at the slot's top
// with the gap as space below it.

/** Each row's slot: the next row's offset less this one's, and the last row's height. */
export function listSlots(layout) {
  const { heights, offsets } = layout;
  return heights.map((height, index) => (index + 1 < heights.length ? offsets[index + 1] - offsets[index] : height));
}

/**
 * TanStack Virtual's `initialMeasurementsCache`: a VirtualItem per row, `{key, index, start, end, size, lane}`.
 * `keys` are what the virtualizer's `getItemKey` returns (default: the index); give the virtualizer the
 * same `gap` as the request, and the same `paddingStart` and `scrollMargin` as here. TanStack keeps each
 * item's size by its key and recomputes each start as the previous end plus `gap` (from `paddingStart` +
 * `scrollMargin`), which gives these starts.
 */
export function tanstackMeasurements(layout, { keys, paddingStart = 0, scrollMargin = 0 } = {}) {
  const base = paddingStart + scrollMargin;
  return layout.heights.map((size, index) => {
    const start = base + layout.offsets[index];
    return { key: keys ? keys[index] : index, index, start, end: start + size, size, lane: 0 };
  });
}

/** react-virtuoso's `heightEstimates`: each item's height, the row's slot (Virtuoso has no gap of its own). */
export function virtuosoHeightEstimates(layout) {
  return listSlots(layout);
}

/**
 * FlashList's `overrideItemLayout(layout, item, index)`: sets `layout.size` to the row's slot (FlashList 1.x
 * reads it as the item's exact height).
 */
export function flashListOverrideItemLayout(layout) {
  const slots = listSlots(layout);
  return (itemLayout, _item, index) => { itemLayout.size = slots[index]; };
}

/** react-window's `itemSize(index)` (VariableSizeList; `rowHeight` in react-window 2): the row's slot. */
export function reactWindowItemSize(layout) {
  const slots = listSlots(layout);
  return (index) => slots[index];
}
