// The peer `make bench-peers` measures Trellis against: the flow layout and the outline expansion in
// Node.js with the standard library only (http, cluster, os), one worker per core by default, written
// the way a user would write them (JSON.parse, plain objects, JSON.stringify).
//
//   node bench/peers/server.js PORT [WORKERS]
//
// It answers the benchmark's bodies with the same bytes as Trellis (bench/peers/run.py checks every
// one before measuring). It is a peer for benchmarking, not a second Trellis:
// - flow layout: greedy line breaking with the spacings, gaps, alignment, rowAlignment, direction,
//   breakBefore, maxRows and ids; `overflowIndicator`, `lineBreaking: balanced` and `pixelScale` are
//   answered 422;
// - outline expansion: nested (`childrenKey`) and flat (`parentKey`) forms, `idKey`, `selection` and
//   `selections`, duplicate ids, unknown parents and parent cycles refused with 422;
// - problems are plain problem+json without Trellis's pointers and wording;
// - numbers: JSON.stringify writes integers and decimals as Trellis does; they differ only in the
//   exponent form (below 1e-4 in magnitude or at least 2^53 and not integral; never in these layouts
//   of integral sizes), and string ids with \b or \f (JSON.stringify's short escapes; Trellis \u0008).
'use strict';

const cluster = require('cluster');
const http = require('http');
const os = require('os');

const port = Number(process.argv[2] || 8081);
const workers = Number(process.argv[3] || os.cpus().length);
// Request bodies up to 256 MiB, as the benchmark's largest Trellis runs allow.
const MAX_BODY = 256 << 20;
const MAX_ITEMS = 1_000_000;
const MAX_NODES = 2_000_000;
const MAX_SELECTIONS = 1_000;
const MAX_LENGTH = 1_000_000_000;

class Problem extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isID = (v) => typeof v === 'string' || (Number.isInteger(v) && Math.abs(v) <= 2 ** 53);

function length(value, name) {
  if (typeof value !== 'number' || !(value >= 0 && value <= MAX_LENGTH)) {
    throw new Problem(422, `${name} must be a number within 0...${MAX_LENGTH}`);
  }
  return value;
}

function optionalLength(body, name) {
  const value = body[name];
  return value === undefined || value === null ? 0 : length(value, `/${name}`);
}

function oneOf(body, name, values, fallback) {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (!values.includes(value)) throw new Problem(422, `/${name} must be one of ${values.join(', ')}`);
  return value;
}

// CSS Box Alignment, justify-content for one flex line: space before the first cell and between cells.
function distributeFreeSpace(free, cells, alignment) {
  if (!(free > 0) || cells === 0) return [0, 0];
  switch (alignment) {
    case 'center': return [free / 2, 0];
    case 'trailing': return [free, 0];
    case 'spaceBetween': return cells > 1 ? [0, free / (cells - 1)] : [0, 0];
    case 'spaceAround': return [free / (2 * cells), free / cells];
    case 'spaceEvenly': return [free / (cells + 1), free / (cells + 1)];
    default: return [0, 0];
  }
}

function flowLayout(body) {
  if (!isObject(body)) throw new Problem(422, 'the body must be an object');
  if (!('containerWidth' in body)) throw new Problem(422, '/containerWidth is required');
  const containerWidth = length(body.containerWidth, '/containerWidth');
  const items = body.items;
  if (!Array.isArray(items)) throw new Problem(422, '/items is required and must be an array');
  if (items.length > MAX_ITEMS) throw new Problem(422, `/items must have at most ${MAX_ITEMS} elements`);
  const h = optionalLength(body, 'horizontalSpacing');
  const v = optionalLength(body, 'verticalSpacing');
  const columnGap = optionalLength(body, 'columnGap');
  const rowGap = optionalLength(body, 'rowGap');
  const alignment = oneOf(body, 'alignment',
    ['leading', 'center', 'trailing', 'spaceBetween', 'spaceAround', 'spaceEvenly'], 'leading');
  const rowAlignment = oneOf(body, 'rowAlignment', ['top', 'center', 'bottom'], 'top');
  const direction = oneOf(body, 'direction', ['ltr', 'rtl'], 'ltr');
  oneOf(body, 'lineBreaking', ['greedy'], 'greedy');
  let maxRows = body.maxRows;
  if (maxRows === undefined || maxRows === null) {
    maxRows = Infinity;
  } else if (!Number.isInteger(maxRows) || maxRows < 1 || maxRows > 2147483647) {
    throw new Problem(422, '/maxRows must be an integer within 1...2147483647');
  }
  for (const name of ['overflowIndicator', 'pixelScale']) {
    if (body[name] !== undefined && body[name] !== null) throw new Problem(422, `/${name} is not implemented by this peer`);
  }

  // CSS Flexbox §9.2 step 3 with flex: none: each cell is the item plus its padding on both sides.
  const n = items.length;
  const cellWidths = new Float64Array(n);
  const cellHeights = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const item = items[i];
    if (!isObject(item)) throw new Problem(422, `/items/${i} must be an object`);
    if (item.id !== undefined && item.id !== null && !isID(item.id)) {
      throw new Problem(422, `/items/${i}/id must be a string or an integer`);
    }
    if (item.breakBefore !== undefined && item.breakBefore !== null && typeof item.breakBefore !== 'boolean') {
      throw new Problem(422, `/items/${i}/breakBefore must be a boolean`);
    }
    cellWidths[i] = length(item.width, `/items/${i}/width`) + 2 * h;
    cellHeights[i] = length(item.height, `/items/${i}/height`) + 2 * v;
  }

  // CSS Flexbox §9.3 step 5: greedy lines; a cell overflows past containerWidth + 1e-9 × max(1, containerWidth).
  const limit = containerWidth + 1e-9 * Math.max(1, containerWidth);
  const lines = [];
  if (n > 0) {
    let line = { start: 0, count: 1, width: cellWidths[0] };
    for (let i = 1; i < n && lines.length < maxRows; i++) {
      const extended = line.width + columnGap + cellWidths[i];
      if (items[i].breakBefore === true || extended > limit) {
        lines.push(line);
        line = { start: i, count: 1, width: cellWidths[i] };
      } else {
        line.count += 1;
        line.width = extended;
      }
    }
    if (lines.length < maxRows) lines.push(line);
  }

  // CSS Flexbox §9.4 step 8, §9.5 step 12, §9.6 steps 14 and 16: rows stacked from the top.
  const placed = [];
  const rows = [];
  let top = 0;
  for (let r = 0; r < lines.length; r++) {
    const { start, count, width } = lines[r];
    if (r > 0) top += rowGap;
    let lineHeight = 0;
    for (let i = start; i < start + count; i++) lineHeight = Math.max(lineHeight, cellHeights[i]);
    const [leading, between] = distributeFreeSpace(containerWidth - width, count, alignment);
    let x = leading;
    for (let i = start; i < start + count; i++) {
      const item = items[i];
      let cellY = top;
      if (rowAlignment === 'center') cellY = top + (lineHeight - cellHeights[i]) / 2;
      else if (rowAlignment === 'bottom') cellY = top + lineHeight - cellHeights[i];
      let left = x + h;
      // Rule "direction rtl": the mirror image about the container's vertical centre line.
      if (direction === 'rtl') left = containerWidth - (left + item.width);
      const out = {};
      // Rule "ids": echoed only when given.
      if (item.id !== undefined && item.id !== null) out.id = item.id;
      out.index = i;
      out.row = r;
      out.x = left;
      out.y = cellY + v;
      out.width = item.width;
      out.height = item.height;
      placed.push(out);
      x += cellWidths[i] + columnGap + between;
    }
    rows.push({ y: top, height: lineHeight, width, start, count });
    top += lineHeight;
  }
  const visible = lines.length ? lines[lines.length - 1].start + lines[lines.length - 1].count : 0;
  const last = rows[rows.length - 1];
  return {
    items: placed,
    rows,
    size: { width: containerWidth, height: last ? last.y + last.height : 0 },
    hiddenCount: n - visible,
  };
}

function keyName(body, name, fallback) {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || Buffer.byteLength(value) > 256) {
    throw new Problem(422, `/${name} must be a string of at most 256 bytes`);
  }
  return value;
}

// The tree: every node's id and parent index, nodes numbered in the nested form's pre-order or the flat array's order.
function readTree(body) {
  const idKey = keyName(body, 'idKey', 'id');
  const childrenKey = keyName(body, 'childrenKey', 'children');
  const parentKey = keyName(body, 'parentKey', undefined);
  if (parentKey !== undefined ? parentKey === idKey : childrenKey === idKey) {
    throw new Problem(422, 'the key names must differ from idKey');
  }
  const nodes = body.nodes;
  if (!Array.isArray(nodes)) throw new Problem(422, '/nodes is required and must be an array');
  const ids = [];
  const indexOf = new Map();
  const parents = [];
  const addNode = (node, parent) => {
    if (!isObject(node)) throw new Problem(422, 'every node must be an object');
    const id = node[idKey];
    if (!isID(id)) throw new Problem(422, `every node needs an ${idKey} that is a string or an integer`);
    if (indexOf.has(id)) throw new Problem(422, `the id ${JSON.stringify(id)} is given twice`);
    if (ids.length >= MAX_NODES) throw new Problem(422, `/nodes must hold at most ${MAX_NODES} nodes`);
    indexOf.set(id, ids.length);
    ids.push(id);
    parents.push(parent);
  };
  if (parentKey === undefined) {
    // Rule: an explicit stack instead of recursion, so any depth is safe; nodes come out in pre-order.
    const stack = [[nodes, 0, -1]];
    while (stack.length) {
      const frame = stack[stack.length - 1];
      if (frame[1] === frame[0].length) {
        stack.pop();
        continue;
      }
      const node = frame[0][frame[1]++];
      const index = ids.length;
      addNode(node, frame[2]);
      const children = node[childrenKey];
      if (children === undefined || children === null) continue;
      if (!Array.isArray(children)) throw new Problem(422, `${childrenKey} must be an array or null`);
      stack.push([children, 0, index]);
    }
    return { ids, indexOf, parents: Int32Array.from(parents) };
  }
  if (nodes.length > MAX_NODES) throw new Problem(422, `/nodes must have at most ${MAX_NODES} elements`);
  for (const node of nodes) addNode(node, -1);
  // Rule: parents may follow their children, so they are resolved once every id is known.
  const links = new Int32Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const parent = nodes[i][parentKey];
    if (parent === undefined || parent === null) {
      links[i] = -1;
      continue;
    }
    const p = isID(parent) ? indexOf.get(parent) : undefined;
    if (p === undefined) throw new Problem(422, `/nodes/${i}/${parentKey} is not the id of any node`);
    links[i] = p;
  }
  return { ids, indexOf, parents: links };
}

// Pre-order positions (siblings in input order) by an explicit stack; a node no root reaches is on or behind a cycle.
function preOrderIndex(parents) {
  const n = parents.length;
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parents[i] >= 0) childStart[parents[i] + 1]++;
  for (let i = 0; i < n; i++) childStart[i + 1] += childStart[i];
  const next = childStart.slice();
  const children = new Int32Array(n);
  const stack = [];
  for (let i = 0; i < n; i++) {
    if (parents[i] >= 0) children[next[parents[i]]++] = i;
  }
  for (let i = n - 1; i >= 0; i--) if (parents[i] < 0) stack.push(i);
  const preIndex = new Int32Array(n).fill(-1);
  let seen = 0;
  while (stack.length) {
    const v = stack.pop();
    preIndex[v] = seen++;
    for (let c = childStart[v + 1] - 1; c >= childStart[v]; c--) stack.push(children[c]);
  }
  if (seen !== n) throw new Problem(422, 'the parents of some nodes form a cycle, so they reach no root');
  return preIndex;
}

function outlineExpansion(body) {
  if (!isObject(body)) throw new Problem(422, 'the body must be an object');
  const tree = readTree(body);
  const single = body.selection;
  const many = body.selections;
  let selections = [];
  if (single !== undefined && single !== null && many !== undefined && many !== null) {
    throw new Problem(422, '/selections cannot be sent together with selection');
  } else if (single !== undefined && single !== null) {
    selections = [single];
  } else if (many !== undefined && many !== null) {
    if (!Array.isArray(many) || many.length > MAX_SELECTIONS) {
      throw new Problem(422, `/selections must be an array of at most ${MAX_SELECTIONS} ids`);
    }
    selections = many;
  }
  for (const selection of selections) {
    if (!isID(selection)) throw new Problem(422, 'a selection must be a string or an integer');
  }
  const { ids, indexOf, parents } = tree;
  const preIndex = preOrderIndex(parents);
  // Rule: `expand` is the union of the strict ancestors of every found selection, in tree pre-order.
  const marked = new Uint8Array(ids.length);
  const found = [];
  const paths = [];
  for (const selection of selections) {
    const node = indexOf.get(selection);
    if (node === undefined) {
      paths.push({ id: selection, found: false, path: [] });
      continue;
    }
    const path = [];
    for (let u = node; u >= 0; u = parents[u]) path.push(ids[u]);
    path.reverse();
    paths.push({ id: selection, found: true, path });
    for (let u = parents[node]; u >= 0 && !marked[u]; u = parents[u]) {
      marked[u] = 1;
      found.push(u);
    }
  }
  found.sort((a, b) => preIndex[a] - preIndex[b]);
  return { expand: found.map((u) => ids[u]), paths };
}

const routes = {
  '/v1/flow/layout': flowLayout,
  '/v1/outline/expansion': outlineExpansion,
};
const HEALTHY = Buffer.from('{"status":"ok"}');

function send(response, status, type, body) {
  response.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

function problem(response, status, detail) {
  const titles = { 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 413: 'Content Too Large',
    415: 'Unsupported Media Type', 422: 'Unprocessable Content' };
  send(response, status, 'application/problem+json',
    JSON.stringify({ type: 'about:blank', title: titles[status], status, detail }));
}

function handle(request, response) {
  const url = request.url.split('?')[0];
  if (url === '/healthz') {
    if (request.method !== 'GET' && request.method !== 'HEAD') return problem(response, 405, 'use GET');
    return send(response, 200, 'application/json', HEALTHY);
  }
  const compute = routes[url];
  if (compute === undefined) return problem(response, 404, `no route for ${url}`);
  if (request.method !== 'POST') return problem(response, 405, 'use POST');
  const type = (request.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[^/]+\+json$/.test(type)) {
    return problem(response, 415, 'send application/json');
  }
  const chunks = [];
  let size = 0;
  let refused = false;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY) {
      refused = true;
      chunks.length = 0;
      problem(response, 413, `bodies are at most ${MAX_BODY} bytes`);
      request.destroy();
    } else if (!refused) {
      chunks.push(chunk);
    }
  });
  request.on('end', () => {
    if (refused) return;
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    } catch (error) {
      return problem(response, 400, `the body is not JSON: ${error.message}`);
    }
    let answer;
    try {
      answer = JSON.stringify(compute(body));
    } catch (error) {
      if (error instanceof Problem) return problem(response, error.status, error.message);
      throw error;
    }
    send(response, 200, 'application/json', answer);
  });
}

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  // Stop: the workers first, so the port is free when this process has exited.
  const stopAll = () => {
    cluster.removeAllListeners('exit');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers).length === 0) process.exit(0);
    });
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', stopAll);
  process.on('SIGINT', stopAll);
} else {
  http.createServer(handle).listen(port, '127.0.0.1');
}
