// The JavaScript client against a live trellis (the debug build unless TRELLIS_BINARY names another),
// started on an ephemeral loopback port: `make js-client-test`, or `node --test clients/js/trellis.test.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  createClient, endpoints, fontId, FONT_NOT_STORED, LIST_NOT_KEPT, TrellisProblem, listSlots, tanstackMeasurements, virtuosoHeightEstimates,
  flashListOverrideItemLayout, reactWindowItemSize,
} from './trellis.mjs';

const moduleFile = fileURLToPath(new URL('./trellis.mjs', import.meta.url));
const binary = process.env.TRELLIS_BINARY ?? fileURLToPath(new URL('../../.build/debug/trellis', import.meta.url));
const TIMEOUT = 30_000;

let server = null;
let baseUrl = '';

/** Starts trellis with --port 0 and reads the port it prints ("listening on http://127.0.0.1:PORT"). */
function start() {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--host', '127.0.0.1', '--port', '0', '--log', 'off', '--threads', '2'],
      { stdio: ['ignore', 'ignore', 'pipe'] });
    let seen = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${binary} did not start: ${seen}`)); }, 15_000);
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const match = /listening on \S*:(\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    });
  });
}

before(async () => {
  const started = await start();
  server = started.child;
  baseUrl = `http://127.0.0.1:${started.port}/`;
});

after(() => {
  if (server && server.exitCode === null) server.kill('SIGTERM');
});

// The request examples of openapi.yaml, and what it says they answer.
const outlineTree = [
  { id: 'root', title: 'Root', children: [
    { id: 'docs', children: [{ id: 'readme' }, { id: 'guides', children: [{ id: 'intro' }] }] },
    { id: 'src', children: [{ id: 'main' }] }] },
  { id: 'other' },
];
const flowExample = {
  containerWidth: 300, horizontalSpacing: 4, verticalSpacing: 4,
  items: [
    { id: 'swift', width: 62, height: 36 }, { id: 'swiftui', width: 84, height: 36 }, { id: 'uikit', width: 66, height: 36 },
    { id: 'xcode', width: 68, height: 36 }, { id: 'apple', width: 66, height: 36 }, { id: 'ios', width: 50, height: 36 },
    { id: 'ipad', width: 56, height: 36 }],
};
const sectionsExample = {
  sections: [
    { id: '食べ物', items: ['明太子パスタ', 'ショートケーキ', 'プロシュート', 'パウンドケーキ'] },
    { id: '飲み物', items: ['コーラ', 'ルイボスティー'] }],
  expanded: ['食べ物'],
  toggle: '飲み物',
};
const drawerExample = {
  isPresented: false, action: 'toggle', container: { width: 390, height: 844 }, drawerWidth: 200, edge: 'leading',
  layoutDirection: 'ltr', safeAreaInsets: { top: 47, leading: 0, bottom: 34, trailing: 0 }, maskOpacity: 0.2,
  spring: { response: 0.55, dampingFraction: 0.825 }, frameRate: 60,
};
const bubble = { top: 8, bottom: 8, leading: 12, trailing: 12 };
const chatExample = {
  font: { family: 'DejaVu Sans, Noto Color Emoji', size: 15 }, widths: [280, 560], gap: 8, paragraphGap: 4,
  rows: [
    { key: 'm1', texts: ['Are we still on for lunch tomorrow? 🍜'], padding: bubble },
    { key: 'm2', texts: ['Yes! 12:30 at the usual place, I booked the table by the window.'], padding: bubble, extraHeight: 22 },
    { key: 'day', texts: ['Tuesday'], minHeight: 32 },
    { key: 'm3', texts: [{ text: 'Bringing the slides for the review too, they are long but the summary is on the first page.',
      maxLines: 2, textOverflow: 'ellipsis' }, 'Sent from my phone'], padding: bubble }],
  scroll: { offset: 40, viewportHeight: 80 }, anchor: { key: 'm2', offset: 6 },
};

test('one method per endpoint, named as openapi.yaml\'s operationIds', () => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
  assert.deepEqual(Object.keys(endpoints),
    ['outlineExpansion', 'outlineRows', 'flowLayout', 'sectionsToggle', 'drawerState', 'textMeasure', 'textLayout', 'listLayout', 'batch']);
  assert.equal(typeof client.fonts, 'function');
  for (const name of Object.keys(endpoints)) assert.equal(typeof client[name], 'function', name);
  assert.equal(client.baseUrl, 'http://127.0.0.1:1');
});

test('the client has a method for every POST endpoint the service lists at /', { timeout: TIMEOUT }, async () => {
  const index = await (await fetch(baseUrl)).json();
  // POST /v1/fonts takes a font file: addFont and storeFont upload them (with PUT, the id being known).
  const posts = index.endpoints.filter((endpoint) => endpoint.method === 'POST' && endpoint.path !== '/v1/fonts')
    .map((endpoint) => endpoint.path);
  assert.deepEqual(Object.values(endpoints), posts);
  assert.ok(index.endpoints.some((endpoint) => endpoint.method === 'PUT' && endpoint.path === '/v1/fonts/{id}'));
  assert.ok(index.endpoints.some((endpoint) => endpoint.method === 'GET' && endpoint.path === '/clients/trellis.mjs'));
});

test('every method answers its openapi.yaml example', { timeout: TIMEOUT }, async () => {
  const client = createClient({ baseUrl });
  assert.deepEqual(await client.outlineExpansion({ nodes: outlineTree, selection: 'readme' }),
    { expand: ['root', 'docs'], paths: [{ id: 'readme', found: true, path: ['root', 'docs', 'readme'] }] });

  const rows = await client.outlineRows({ nodes: outlineTree, selection: 'readme', offset: 1, limit: 3 });
  assert.deepEqual(rows.rows.map((row) => row.id), ['docs', 'readme', 'guides']);
  assert.equal(rows.totalRows, 6);
  assert.equal(rows.selectedRow, 2);
  assert.deepEqual(rows.noSelection, { selected: false });

  const flow = await client.flowLayout(flowExample);
  assert.deepEqual(flow.rows, [
    { y: 0, height: 44, width: 236, start: 0, count: 3 }, { y: 44, height: 44, width: 272, start: 3, count: 4 }]);
  assert.deepEqual(flow.items[6], { id: 'ipad', index: 6, row: 1, x: 212, y: 48, width: 56, height: 36 });
  assert.deepEqual(flow.size, { width: 300, height: 88 });
  assert.equal(flow.hiddenCount, 0);
  // Chips with the text properties: a kept line feed ends a label's line, centred in its chip, letter-spaced.
  const chips = await client.flowLayout({ containerWidth: 300, font: { family: 'DejaVu Sans', size: 16 },
    labelPadding: { leading: 8, trailing: 8 }, whiteSpace: 'pre-line', textAlign: 'center', letterSpacing: '0.05em',
    items: [{ id: 'sam', text: 'Sam Lee\nonline' }, { id: 'ana', text: 'Ana' }] });
  assert.deepEqual(chips.items.map((item) => item.width), [90.5625, 49.296875]);
  assert.deepEqual(chips.items[0].lines.map((line) => [line.start, line.x ?? 0, line.forcedBreak ?? false]),
    [[0, 0, true], [8, 10.46875, false]]);

  const measured = await client.textMeasure({ font: { family: 'DejaVu Sans, IPAGothic', size: 17 }, texts: ['Swift', 'SwiftUI'] });
  assert.deepEqual(measured, {
    font: { size: 17, ascent: 16, descent: 4, lineGap: 0, lineHeight: 20 },
    texts: [{ width: 41.78125, height: 20 }, { width: 59.234375, height: 20 }] });
  const paragraph = await client.textLayout({ font: { family: 'DejaVu Sans', size: 16 },
    texts: ['Long labels must wrap, not overflow the chip.'], width: 160, maxLines: 2, textOverflow: 'ellipsis' });
  assert.deepEqual(paragraph.texts[0].lines.map((line) => line.start), [0, 17]);
  assert.deepEqual(paragraph.texts[0].ellipsis, { line: 1, end: 34, x: 136.640625, width: 16, text: '…' });
  assert.equal(paragraph.texts[0].lineCount, 3);
  const list = await client.listLayout(chatExample);
  assert.deepEqual(list.layouts[0], { width: 280, heights: [52, 74, 32, 74], offsets: [0, 60, 142, 182], total: 256,
    lineCounts: [2, 2, 1, 4], truncated: [false, false, false, true], window: { start: 1, end: 3 },
    anchor: { index: 1, scrollOffset: 66 } });
  assert.deepEqual(list.layouts[1].heights, [34, 56, 32, 74]);
  assert.deepEqual(list.layouts[1].anchor, { index: 1, scrollOffset: 48 });
  const faces = await client.fonts();
  assert.ok(faces.fonts.some((face) => face.family === 'IPAGothic' && face.weight === 400 && face.style === 'normal'));

  const sections = await client.sectionsToggle(sectionsExample);
  assert.deepEqual(sections.expanded, ['食べ物', '飲み物']);
  assert.deepEqual(sections.changed, ['飲み物']);
  assert.deepEqual(sections.sections[1].items, ['コーラ', 'ルイボスティー']);

  const drawer = await client.drawerState(drawerExample);
  assert.equal(drawer.isPresented, true);
  assert.deepEqual(drawer.panel.frame, { x: 0, y: 0, width: 200, height: 844 });
  assert.deepEqual(drawer.transition.panel, { fromX: -200, toX: 0 });
  assert.equal(drawer.transition.css.duration, '758ms');
  assert.equal(drawer.transition.keyframes.length, 47);
});

test('batch: the four panels in one round trip, each entry as alone; a 422 entry resolves, a malformed batch rejects',
  { timeout: TIMEOUT }, async () => {
    const client = createClient({ baseUrl });
    const requests = [
      { path: endpoints.outlineRows, body: { nodes: outlineTree, selection: 'readme', offset: 1, limit: 3 } },
      { path: endpoints.flowLayout, body: flowExample },
      { path: endpoints.sectionsToggle, body: sectionsExample },
      { path: endpoints.drawerState, body: drawerExample },
      { path: endpoints.flowLayout, body: { containerWidth: -1, items: [] } },
    ];
    const { responses } = await client.batch({ requests });
    assert.deepEqual(responses.map((entry) => entry.status), [200, 200, 200, 200, 422]);
    assert.deepEqual(responses[0].body, await client.outlineRows(requests[0].body));
    assert.deepEqual(responses[1].body, await client.flowLayout(flowExample));
    assert.deepEqual(responses[2].body, await client.sectionsToggle(sectionsExample));
    assert.deepEqual(responses[3].body, await client.drawerState(drawerExample));
    assert.deepEqual(responses[4].body.errors.map((error) => error.pointer), ['/containerWidth']);
    await assert.rejects(client.batch({ requests: [{ path: '/v1/batch', body: {} }] }), (error) => {
      assert.ok(error instanceof TrellisProblem);
      assert.equal(error.status, 422);
      assert.deepEqual(error.errors.map((e) => e.pointer), ['/requests/0/path']);
      return true;
    });
  });

test('outline search: the returned ranges slice the labels as JavaScript strings', { timeout: TIMEOUT }, async () => {
  const client = createClient({ baseUrl });
  const nodes = [{ id: 'f', label: 'Fotos 📷', children: [{ id: 'c', label: 'Cafe\u0301 📷 café' }, { id: 'x', label: 'x' }] }];
  const rows = await client.outlineRows({ nodes, search: { query: 'CAFE' } });
  assert.deepEqual(rows.rows.map((row) => [row.id, row.expanded, row.match]),
    [['f', true, null], ['c', false, { ranges: [[0, 5], [9, 13]] }]]);
  assert.equal(rows.matchCount, 1);
  const { expand, matches, paths } = await client.outlineExpansion({ nodes, search: { query: '📷', mode: 'words' } });
  assert.deepEqual([expand, paths], [['f'], undefined]);
  assert.deepEqual(matches.map(({ id, ranges }) => [id, ranges.map(([s, e]) => nodes[0].children.concat(nodes)
    .find((node) => node.id === id).label.slice(s, e))]), [['f', ['📷']], ['c', ['📷']]]);
});

test('a 422 rejects with a TrellisProblem carrying every pointer', { timeout: TIMEOUT }, async () => {
  const client = createClient({ baseUrl });
  const body = {
    parentKey: 'parent', selection: 'a',
    nodes: [{ id: 'a', parent: 'b' }, { id: 'b', parent: 'a' }, { id: 'c', parent: 'x' }, { id: 'a' }],
  };
  const error = await client.outlineExpansion(body).then(() => assert.fail('resolved'), (e) => e);
  assert.ok(error instanceof TrellisProblem);
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'TrellisProblem');
  assert.equal(error.status, 422);
  assert.equal(error.problem.status, 422);
  assert.equal(error.problem.type, 'about:blank');
  assert.equal(error.problem.title, 'Unprocessable Content');
  assert.equal(error.problem.detail, 'The request body has 3 problems; see errors.');
  assert.deepEqual(error.errors.map((e) => e.pointer), ['/nodes/3/id', '/nodes/2/parent', '/nodes/0/parent']);
  assert.equal(error.errors, error.problem.errors);
  assert.match(error.errors[0].detail, /duplicates the id "a"/);
  assert.match(error.message, /^422 Unprocessable Content: /);
  assert.equal(error.path, '/v1/outline/expansion');
  assert.equal(typeof error.requestId, 'string');

  const sections = await client.sectionsToggle({ sections: [{ id: 'a' }, { id: 'a' }], toggle: 'zz' }).catch((e) => e);
  assert.ok(sections instanceof TrellisProblem);
  assert.ok(sections.errors.some((e) => e.pointer === '/sections/1/id'), JSON.stringify(sections.errors));
});

test('other problems: a 400 from JSON text sent as it is, a 404 through post()', { timeout: TIMEOUT }, async () => {
  const client = createClient({ baseUrl });
  const malformed = await client.sectionsToggle('{"sections": [').catch((e) => e);
  assert.ok(malformed instanceof TrellisProblem);
  assert.equal(malformed.status, 400);
  assert.deepEqual(malformed.errors, []);

  // JSON text goes out unchanged (the last duplicate key wins on the server, as in JSON.parse).
  const text = '{"sections": [{"id": 1}], "toggle": 2, "toggle": 1}';
  assert.deepEqual((await client.sectionsToggle(text)).expanded, [1]);

  const missing = await client.post('/v1/nowhere', {}).catch((e) => e);
  assert.ok(missing instanceof TrellisProblem);
  assert.equal(missing.status, 404);
  assert.equal(missing.problem.title, 'Not Found');
});

test('X-Request-Id: sent per client or per call, and read back', { timeout: TIMEOUT }, async () => {
  const seen = [];
  let counter = 0;
  const client = createClient({ baseUrl, requestId: () => `js-client-${++counter}`, headers: { 'X-Extra': 'ignored' } });
  const onResponse = (response) => seen.push(response.headers.get('X-Request-Id'));
  await client.sectionsToggle({ sections: [] }, { onResponse });
  await client.sectionsToggle({ sections: [] }, { onResponse, requestId: 'one-off' });
  assert.deepEqual(seen, ['js-client-1', 'one-off']);
  const problem = await client.sectionsToggle({}, { requestId: 'failing-call' }).catch((e) => e);
  assert.equal(problem.requestId, 'failing-call');
});

test('failures that are not problem details', { timeout: TIMEOUT }, async () => {
  // A port nobody listens on: fetch's own error.
  const closed = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => { const { port } = probe.address(); probe.close(() => resolve(port)); });
  });
  const network = await createClient({ baseUrl: `http://127.0.0.1:${closed}` }).flowLayout(flowExample).catch((e) => e);
  assert.ok(network instanceof TypeError, String(network));
  assert.ok(!(network instanceof TrellisProblem));

  // A proxy's HTML error page: a TrellisProblem built from the status.
  const proxy = async () => new Response('<html>upstream down</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'Content-Type': 'text/html' } });
  const gateway = await createClient({ baseUrl, fetch: proxy }).drawerState(drawerExample).catch((e) => e);
  assert.ok(gateway instanceof TrellisProblem);
  assert.equal(gateway.status, 502);
  assert.deepEqual(gateway.problem, { type: 'about:blank', title: 'Bad Gateway', status: 502, detail: '<html>upstream down</html>' });
  assert.deepEqual(gateway.errors, []);

  // A 200 that is not JSON: JSON.parse's own error.
  const garbled = async () => new Response('not json', { status: 200, headers: { 'Content-Type': 'application/json' } });
  const parse = await createClient({ baseUrl, fetch: garbled }).outlineRows({ nodes: [] }).catch((e) => e);
  assert.ok(parse instanceof SyntaxError, String(parse));

  assert.throws(() => createClient({}), TypeError);
});

test('the service serves this very module at /clients/trellis.mjs', { timeout: TIMEOUT }, async () => {
  const response = await fetch(new URL('/clients/trellis.mjs', baseUrl));
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('Content-Type'), 'text/javascript; charset=utf-8');
  assert.deepEqual(Buffer.from(await response.arrayBuffer()), readFileSync(moduleFile));
});

// The adapters: each library's own arithmetic, as its source does it, run over the adapter's output must put
// every row at the offset Trellis answered.
test('list adapters: the shapes TanStack Virtual, react-virtuoso, FlashList and react-window take', { timeout: TIMEOUT }, async () => {
  const client = createClient({ baseUrl });
  const rows = Array.from({ length: 40 }, (_, i) => ({
    key: `m${i}`, texts: ['Hello '.repeat(1 + (i * 7) % 23)], padding: { top: 6, bottom: 6.3, leading: 10, trailing: 10 },
    extraHeight: i % 5 === 0 ? 20 : 0, minHeight: 30 }));
  const { layouts } = await client.listLayout({ font: { family: 'DejaVu Sans', size: 14 }, widths: [180, 420], gap: 6.5, rows });
  for (const layout of layouts) {
    const n = rows.length;
    assert.equal(layout.heights.length, n);
    const slots = listSlots(layout);
    assert.equal(slots.reduce((a, b) => a + b, 0), layout.total);

    // TanStack Virtual: getMeasurements keeps each size by key, then start = previous end + gap (the first at
    // paddingStart + scrollMargin), end = start + size.
    const keys = rows.map((row) => row.key);
    const items = tanstackMeasurements(layout, { keys, paddingStart: 12, scrollMargin: 100 });
    assert.equal(items.length, n);
    const sizes = new Map(items.map((item) => [item.key, item.size]));
    let previous = null;
    items.forEach((item, index) => {
      assert.deepEqual(Object.keys(item).sort(), ['end', 'index', 'key', 'lane', 'size', 'start']);
      assert.deepEqual([item.key, item.index, item.lane], [keys[index], index, 0]);
      const start = previous ? previous.end + 6.5 : 12 + 100;
      assert.equal(item.start, start);
      assert.equal(item.size, sizes.get(item.key));
      assert.equal(item.end, start + item.size);
      assert.equal(item.start - 112, layout.offsets[index]);
      previous = item;
    });
    assert.deepEqual(tanstackMeasurements(layout).map((item) => item.key), rows.map((_, i) => i));

    // react-virtuoso stacks items back to back, each heightEstimates[i] high; react-window's VariableSizeList
    // puts item i at the sum of itemSize(j) for j < i; FlashList 1.x at the sum of the sizes overrideItemLayout set.
    const estimates = virtuosoHeightEstimates(layout);
    const itemSize = reactWindowItemSize(layout);
    const override = flashListOverrideItemLayout(layout);
    let top = 0;
    for (let index = 0; index < n; index++) {
      assert.equal(top, layout.offsets[index]);
      const flash = { span: undefined, size: undefined };
      override(flash, rows[index], index);
      assert.equal(flash.size, estimates[index]);
      assert.equal(itemSize(index), estimates[index]);
      assert.ok(estimates[index] >= layout.heights[index]);
      top += estimates[index];
    }
    assert.equal(top, layout.total);
  }
  assert.ok(layouts[0].total > layouts[1].total, 'narrower is taller');
});

// A kept list: the chat sent once with keep answers its id; named at other widths with an anchor, it answers what the
// rows sent again answer, and its id again. An id the server does not keep is a problem of LIST_NOT_KEPT at /list.
test('a kept list is laid out as the rows sent again; a list not kept is a problem of LIST_NOT_KEPT', { timeout: TIMEOUT }, async () => {
  const client = createClient({ baseUrl });
  const { scroll: _scroll, anchor: _anchor, ...chat } = chatExample;
  const kept = await client.listLayout({ ...chat, widths: [200, 320], keep: true });
  assert.match(kept.list, /^[0-9a-f]{32}$/);
  // Without keep the answer names no list.
  assert.deepEqual(await client.listLayout({ ...chat, widths: [200, 320] }), { layouts: kept.layouts });

  const ask = { widths: [250, 400], anchor: { key: 'm2', offset: 3 } };
  const named = await client.listLayout({ list: kept.list, ...ask });
  assert.equal(named.list, kept.list);
  const again = await client.listLayout({ ...chat, ...ask });
  assert.equal('list' in again, false);
  assert.deepEqual(named.layouts, again.layouts);
  assert.deepEqual(named.layouts.map((layout) => [layout.width, layout.anchor.index]), [[250, 1], [400, 1]]);

  await assert.rejects(client.listLayout({ list: '0'.repeat(32), width: 320 }), (error) => {
    assert.ok(error instanceof TrellisProblem);
    assert.equal(error.status, 422);
    assert.equal(error.problem.type, LIST_NOT_KEPT);
    assert.deepEqual(error.errors.map((e) => e.pointer), ['/list']);
    return true;
  });
  // What the list keeps is not sent with it: each such member is a problem at its pointer.
  await assert.rejects(client.listLayout({ list: kept.list, width: 320, gap: 4, maxLines: 2 }), (error) => {
    assert.ok(error instanceof TrellisProblem);
    assert.equal(error.status, 422);
    assert.notEqual(error.problem.type, LIST_NOT_KEPT);
    assert.deepEqual(error.errors.map((e) => e.pointer).sort(), ['/gap', '/maxLines']);
    return true;
  });
});

// A font file the client is given once: it hashes it with WebCrypto, and the first request naming it finds it not
// stored (422 of FONT_NOT_STORED at /fontFaces/0/src), asks with HEAD, uploads it with PUT and sends the request again.
const interWoff2 = readFileSync(fileURLToPath(new URL('../../Tests/TrellisAPITests/Fonts/Fixtures/inter-latin.woff2', import.meta.url)));

test('a font given to the client is uploaded when a request needs it, once', { timeout: TIMEOUT }, async () => {
  const sent = [];
  const counting = (url, init) => { sent.push(`${init.method} ${new URL(url).pathname}`); return fetch(url, init); };
  const client = createClient({ baseUrl, fetch: counting });
  const id = await client.addFont(interWoff2);
  assert.equal(id, await fontId(new Uint8Array(interWoff2)));
  assert.match(id, /^sha256-[0-9a-f]{64}$/);
  const request = {
    font: { family: 'Inter, DejaVu Sans', size: 16, weight: 450 },
    fontFaces: [{ family: 'Inter', src: id, weight: '100 900' }],
    texts: ['Swift', 'Ωμέγα'],
  };
  const first = await client.textMeasure(request);
  assert.equal(first.texts.length, 2);
  assert.deepEqual(sent, ['POST /v1/text/measure', `HEAD /v1/fonts/${id}`, `PUT /v1/fonts/${id}`, 'POST /v1/text/measure']);
  sent.length = 0;
  const again = await client.textMeasure(JSON.stringify(request));
  assert.deepEqual(again, first);
  assert.deepEqual(sent, ['POST /v1/text/measure']);
  // A bolder weight of the variable font is wider.
  const bold = await client.textMeasure({ ...request, font: { ...request.font, weight: 800 } });
  assert.ok(bold.texts[0].width > first.texts[0].width);
  assert.equal(await client.hasFont(id), true);
  const metadata = await client.fontMetadata(id);
  assert.equal(metadata.format, 'woff2');
  assert.deepEqual(metadata.faces[0].axes.map((axis) => axis.tag), ['wght', 'slnt']);
});

test('a font the client was not given is a problem of FONT_NOT_STORED', { timeout: TIMEOUT }, async () => {
  const client = createClient({ baseUrl });
  const missing = 'sha256-' + 'ef'.repeat(32);
  assert.equal(await client.hasFont(missing), false);
  await assert.rejects(client.textLayout({
    font: { family: 'Mine', size: 16 }, fontFaces: [{ family: 'Mine', src: missing }], texts: ['a'], width: 100,
  }), (error) => error instanceof TrellisProblem && error.status === 422 && error.problem.type === FONT_NOT_STORED
    && error.errors[0].pointer === '/fontFaces/0/src');
  await assert.rejects(client.storeFont(missing), TypeError);
  const stored = await client.storeFont(interWoff2);
  assert.equal(stored.id, await fontId(interWoff2));
});

test('a batch entry naming a font not stored: the client uploads it and sends the batch again', { timeout: TIMEOUT }, async () => {
  const interTtf = readFileSync(fileURLToPath(new URL('../../Tests/TrellisAPITests/Fonts/Fixtures/inter-latin.ttf', import.meta.url)));
  const sent = [];
  const counting = (url, init) => { sent.push(`${init.method} ${new URL(url).pathname}`); return fetch(url, init); };
  const client = createClient({ baseUrl, fetch: counting });
  const id = await client.addFont(interTtf);
  assert.equal(await client.hasFont(id), false, 'no other test stores this file');
  sent.length = 0;
  const inInter = {
    font: { family: 'Inter', size: 16, weight: 450 }, fontFaces: [{ family: 'Inter', src: id, weight: '100 900' }], texts: ['Swift'],
  };
  const requests = [
    { path: '/v1/text/measure', body: { font: { family: 'DejaVu Sans', size: 16 }, texts: ['Swift'] } },
    { path: '/v1/text/measure', body: inInter },
  ];
  const { responses } = await client.batch({ requests });
  assert.deepEqual(responses.map((entry) => entry.status), [200, 200]);
  assert.deepEqual(sent, ['POST /v1/batch', `HEAD /v1/fonts/${id}`, `PUT /v1/fonts/${id}`, 'POST /v1/batch']);
  assert.deepEqual(responses[1].body, await client.textMeasure(inInter));
  // An entry naming a font the client was not given is answered as it is, with the others.
  const missing = 'sha256-' + '7a'.repeat(32);
  sent.length = 0;
  const other = await client.batch({ requests: [requests[0], { path: '/v1/text/layout', body: {
    font: { family: 'Mine', size: 16 }, fontFaces: [{ family: 'Mine', src: missing }], texts: ['a'], width: 100 } }] });
  assert.deepEqual(other.responses.map((entry) => entry.status), [200, 422]);
  assert.equal(other.responses[1].body.type, FONT_NOT_STORED);
  assert.deepEqual(sent, ['POST /v1/batch']);
});
