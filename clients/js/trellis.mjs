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

/** The problem type of a 422 whose request names, in `fontFaces`, a font the server does not store (evicted,
 * stored on another replica, lost in a restart): each such error's pointer ends in `/fontFaces/k/src`. */
export const FONT_NOT_STORED = 'tag:trellis,2026:font-not-stored';

// How many times a request is sent again after uploading the fonts it names (another replica may answer it).
const FONT_RETRIES = 2;

/** The problem type of a 422 whose request names, in `list`, a list the server does not keep (never kept, forgotten
 * for newer lists, kept on another replica, lost in a restart): its one error's pointer is `/list`. Send the rows
 * again, with `keep: true`. */
export const LIST_NOT_KEPT = 'tag:trellis,2026:list-not-kept';

/** A font file's content id: "sha256-" and the 64 hex digits of the SHA-256 of its bytes (WebCrypto). */
export async function fontId(bytes) {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', fontBytes(bytes)));
  return 'sha256-' + Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A font file's bytes as a Uint8Array (from an ArrayBuffer, a typed array or a DataView). */
function fontBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new TypeError('a font file must be an ArrayBuffer or a typed array');
}

/** The media type of a font file, from its first four bytes (RFC 8081's font/* types). */
function fontType(bytes) {
  const tag = String.fromCharCode(...bytes.subarray(0, 4));
  if (tag === 'wOF2') return 'font/woff2';
  if (tag === 'wOFF') return 'font/woff';
  if (tag === 'OTTO') return 'font/otf';
  if (tag === 'ttcf') return 'font/collection';
  return tag === 'true' || (bytes[0] === 0 && bytes[1] === 1 && bytes[2] === 0 && bytes[3] === 0) ? 'font/ttf' : 'application/octet-stream';
}

/** The value an RFC 6901 pointer leads to in `value`, or undefined. */
function atPointer(value, pointer) {
  if (pointer === '') return value;
  let here = value;
  for (const token of pointer.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (here === null || typeof here !== 'object' || !Object.prototype.hasOwnProperty.call(here, token)) return undefined;
    here = here[token];
  }
  return here;
}

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

  // The font files given to addFont, by id: uploaded again whenever a request finds one not stored.
  const fontFiles = new Map();

  function headersFor(options, extra = {}) {
    const sent = new Headers(headers);
    for (const [name, value] of new Headers(options.headers ?? {})) sent.set(name, value);
    for (const [name, value] of Object.entries(extra)) if (!sent.has(name)) sent.set(name, value);
    const id = options.requestId ?? (typeof requestId === 'function' ? requestId() : requestId);
    if (id != null) sent.set('X-Request-Id', String(id));
    return sent;
  }

  // The fonts a font-not-stored problem's errors point at in `body` (their src), when this client was given every one
  // of them; null otherwise (another problem, or a font it does not have).
  function fontsToUpload(problem, body) {
    if (problem?.type !== FONT_NOT_STORED || !Array.isArray(problem.errors)) return null;
    const missing = new Set();
    for (const error of problem.errors) {
      const src = typeof error?.pointer === 'string' && /\/src$/.test(error.pointer) ? atPointer(body, error.pointer) : undefined;
      if (typeof src !== 'string' || !fontFiles.has(src)) return null;
      missing.add(src);
    }
    return missing.size > 0 ? missing : null;
  }

  async function post(path, body, options = {}) {
    // A string is JSON text already (sent unchanged); anything else is serialized with JSON.stringify.
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    if (text === undefined) throw new TypeError(`${path}: the body must be a JSON value`);
    for (let attempt = 0; ; attempt++) {
      const sent = headersFor(options, { 'Content-Type': 'application/json', Accept: 'application/json, application/problem+json' });
      const response = await send(base + path, { method: 'POST', headers: sent, body: text, signal: options.signal });
      if (options.onResponse) options.onResponse(response);
      const answer = await response.text();
      const parsed = () => (typeof body === 'string' ? JSON.parse(body) : body);
      // A font the request names is not stored there: upload the ones this client was given, then send it again.
      let missing = null;
      if (response.ok) {
        const value = JSON.parse(answer);
        // A batch answers 200 with each entry's own answer: an entry's font-not-stored points into its own body.
        if (path !== endpoints.batch || attempt >= FONT_RETRIES || !Array.isArray(value?.responses)
          || !value.responses.some((entry) => entry?.status === 422 && entry.body?.type === FONT_NOT_STORED)) return value;
        const requests = parsed()?.requests ?? [];
        missing = new Set();
        for (const [index, entry] of value.responses.entries()) {
          if (entry?.status !== 422 || entry.body?.type !== FONT_NOT_STORED) continue;
          const ids = fontsToUpload(entry.body, requests[index]?.body);
          if (ids === null) return value;
          for (const id of ids) missing.add(id);
        }
        if (missing.size === 0) return value;
      } else {
        const problem = problemOf(response, answer, path);
        missing = attempt < FONT_RETRIES && problem.problem.type === FONT_NOT_STORED ? fontsToUpload(problem.problem, parsed()) : null;
        if (missing === null) throw problem;
      }
      for (const id of missing) {
        if (!(await hasFont(id, options))) await storeFont(id, options);
      }
    }
  }


  /** Keeps a font file (an ArrayBuffer or typed array) for the requests that name it; resolves to its id. */
  async function addFont(bytes) {
    const data = fontBytes(bytes).slice();
    const id = await fontId(data);
    fontFiles.set(id, data);
    return id;
  }

  /** HEAD /v1/fonts/{id}: whether the server stores the font. */
  async function hasFont(id, options = {}) {
    const path = '/v1/fonts/' + encodeURIComponent(id);
    const response = await send(base + path, { method: 'HEAD', headers: headersFor(options), signal: options.signal });
    if (options.onResponse) options.onResponse(response);
    if (response.status === 404) return false;
    if (response.ok) return true;
    throw problemOf(response, '', path);
  }

  /** GET /v1/fonts/{id}: a stored font's metadata (format, size, faces with their axes and named instances). */
  async function fontMetadata(id, options = {}) {
    const path = '/v1/fonts/' + encodeURIComponent(id);
    const response = await send(base + path, { method: 'GET', headers: headersFor(options), signal: options.signal });
    if (options.onResponse) options.onResponse(response);
    const answer = await response.text();
    if (response.ok) return JSON.parse(answer);
    throw problemOf(response, answer, path);
  }

  /** PUT /v1/fonts/{id}: uploads a font file (its bytes, or the id of one given to addFont); resolves to its
   * metadata, whether it was new (201) or stored already (200). */
  async function storeFont(font, options = {}) {
    const id = typeof font === 'string' ? font : await addFont(font);
    const data = fontFiles.get(id);
    if (data === undefined) throw new TypeError(`storeFont: no font file ${id} was given to addFont`);
    const path = '/v1/fonts/' + encodeURIComponent(id);
    const sent = headersFor(options, { 'Content-Type': fontType(data), Accept: 'application/json, application/problem+json' });
    const response = await send(base + path, { method: 'PUT', headers: sent, body: data, signal: options.signal });
    if (options.onResponse) options.onResponse(response);
    const answer = await response.text();
    if (response.ok) return JSON.parse(answer);
    throw problemOf(response, answer, path);
  }

  // GET /v1/fonts: the font faces text can be measured with.
  async function fonts(options = {}) {
    const response = await send(base + '/v1/fonts', { method: 'GET', headers: headersFor(options), signal: options.signal });
    if (options.onResponse) options.onResponse(response);
    const answer = await response.text();
    if (response.ok) return JSON.parse(answer);
    throw problemOf(response, answer, '/v1/fonts');
  }

  const client = { baseUrl: base, post, fonts, addFont, hasFont, fontMetadata, storeFont };
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
