// Types for trellis.mjs, the Trellis JavaScript client; the shapes follow openapi.yaml.

/** A client id: a string, or an integer of magnitude at most 2^53. `"1"` and `1` are different ids. */
export type Id = string | number;

// ---- problems ------------------------------------------------------------------------------------

/** One problem in a 422: an RFC 6901 JSON Pointer into the request body, and what is wrong there. */
export interface ProblemError {
  pointer: string;
  detail: string;
}

/** RFC 9457 problem details, as Trellis answers every error. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** A 422's problems (at most 100 listed). */
  errors?: ProblemError[];
  [member: string]: unknown;
}

/** A non-2xx answer: its problem details (or ones built from the HTTP status when it sent none). */
export class TrellisProblem extends Error {
  constructor(problem: ProblemDetails, context?: { requestId?: string | null; path?: string; cause?: unknown });
  readonly name: 'TrellisProblem';
  readonly status: number;
  readonly problem: ProblemDetails;
  /** `problem.errors`, or `[]`. */
  readonly errors: ProblemError[];
  /** The answer's X-Request-Id, when it could be read. */
  readonly requestId: string | null;
  /** The endpoint's path. */
  readonly path: string | undefined;
}

// ---- the client ----------------------------------------------------------------------------------

export interface ClientOptions {
  /** The service's base URL, e.g. "http://localhost:8080" (a trailing slash is fine). */
  baseUrl: string | URL;
  /** Replaces the global fetch (tests, Node without it, instrumentation). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: HeadersInit;
  /** X-Request-Id for every request: a fixed string or a function that makes one per request. */
  requestId?: string | (() => string);
}

export interface CallOptions {
  /** Headers for this request (over the client's). */
  headers?: HeadersInit;
  /** X-Request-Id for this request (over the client's). */
  requestId?: string;
  signal?: AbortSignal;
  /** Sees the HTTP response (status, headers) before its body is read, for successes and problems alike. */
  onResponse?: (response: Response) => void;
}

/** A request body: the object, or JSON text that is sent unchanged. */
export type Body<T> = T | string;

export interface TrellisClient {
  readonly baseUrl: string;
  /** POST /v1/outline/expansion: the nodes to expand so that every selection is visible, and each selection's path. */
  outlineExpansion(body: Body<OutlineExpansionRequest>, options?: CallOptions): Promise<OutlineExpansionResponse>;
  /** POST /v1/outline/rows: the visible rows of an outline picker, windowed. */
  outlineRows(body: Body<OutlineRowsRequest>, options?: CallOptions): Promise<OutlineRowsResponse>;
  /** POST /v1/flow/layout: positions of wrapping tags (chips) in a container. */
  flowLayout(body: Body<FlowLayoutRequest>, options?: CallOptions): Promise<FlowLayoutResponse>;
  /** POST /v1/sections/toggle: toggle collapsible sections (an accordion reducer). */
  sectionsToggle(body: Body<SectionsToggleRequest>, options?: CallOptions): Promise<SectionsToggleResponse>;
  /** POST /v1/drawer/state: a side drawer's next state, its frames, and its spring transition. */
  drawerState(body: Body<DrawerStateRequest>, options?: CallOptions): Promise<DrawerStateResponse>;
  /** POST /v1/text/measure: widths and line height of texts in one font, as Chromium lays them out. */
  textMeasure(body: Body<TextMeasureRequest>, options?: CallOptions): Promise<TextMeasureResponse>;
  /** POST /v1/text/layout: paragraphs wrapped, clamped or cut with an ellipsis, as Chromium lays them out. */
  textLayout(body: Body<TextLayoutRequest>, options?: CallOptions): Promise<TextLayoutResponse>;
  /**
   * POST /v1/list/layout: every row's height and offset in a virtualized list of text rows, at each width. With `keep`,
   * the answer's `list` names the list for later requests that name it instead of sending its rows (a kept list the
   * server no longer keeps rejects with a problem of LIST_NOT_KEPT: send the rows again, with `keep`).
   */
  listLayout(body: Body<ListLayoutRequest | KeptListLayoutRequest>, options?: CallOptions): Promise<ListLayoutResponse>;
  /**
   * POST /v1/batch: several requests in one round trip, answered in order, each entry as its endpoint answers
   * that body alone (a 422 entry resolves with its problem; only a batch refused whole rejects: malformed, past its bounds, or 503). Typed by path:
   * `responses[i].body` is the answer of `requests[i].path` when `status` is 200.
   */
  batch<E extends BatchEntry[]>(body: { requests: [...E] }, options?: CallOptions): Promise<BatchResponse<E>>;
  batch(body: Body<BatchRequest>, options?: CallOptions): Promise<BatchResponse>;
  /** GET /v1/fonts: the font faces text can be measured with. */
  fonts(options?: CallOptions): Promise<FontsResponse>;
  /**
   * Keeps a font file for the requests whose `fontFaces` name it, and resolves to its id (`sha256-` and the hex
   * SHA-256 of the bytes, from WebCrypto). When the server answers that such a request names a font it does not
   * store, the client asks with HEAD, uploads the file if it must, and sends the request again.
   */
  addFont(bytes: ArrayBuffer | ArrayBufferView): Promise<string>;
  /** HEAD /v1/fonts/{id}: whether the server stores the font. */
  hasFont(id: string, options?: CallOptions): Promise<boolean>;
  /** GET /v1/fonts/{id}: a stored font's metadata. */
  fontMetadata(id: string, options?: CallOptions): Promise<FontMetadata>;
  /** PUT /v1/fonts/{id}: uploads a font file (its bytes, or the id of one given to addFont). */
  storeFont(font: ArrayBuffer | ArrayBufferView | string, options?: CallOptions): Promise<FontMetadata>;
  /** POSTs to any path of the service. */
  post(path: string, body: unknown, options?: CallOptions): Promise<unknown>;
}

export function createClient(options: ClientOptions): TrellisClient;

/** A font file's content id: "sha256-" and the 64 hex digits of the SHA-256 of its bytes. */
export function fontId(bytes: ArrayBuffer | ArrayBufferView): Promise<string>;

/** The problem type of a 422 whose request names a font that is not stored; its errors point at `/fontFaces/k/src`. */
export const FONT_NOT_STORED: 'tag:trellis,2026:font-not-stored';

/** The problem type of a 422 whose request names a list the server does not keep; its one error points at `/list`. */
export const LIST_NOT_KEPT: 'tag:trellis,2026:list-not-kept';

/** The feature paths by method name. */
export const endpoints: Readonly<{
  outlineExpansion: '/v1/outline/expansion';
  outlineRows: '/v1/outline/rows';
  flowLayout: '/v1/flow/layout';
  sectionsToggle: '/v1/sections/toggle';
  drawerState: '/v1/drawer/state';
  textMeasure: '/v1/text/measure';
  textLayout: '/v1/text/layout';
  listLayout: '/v1/list/layout';
  batch: '/v1/batch';
}>;

// ---- batch ---------------------------------------------------------------------------------------

/** Each POST feature path's request body. */
export interface BatchBodies {
  '/v1/outline/expansion': OutlineExpansionRequest;
  '/v1/outline/rows': OutlineRowsRequest;
  '/v1/flow/layout': FlowLayoutRequest;
  '/v1/sections/toggle': SectionsToggleRequest;
  '/v1/drawer/state': DrawerStateRequest;
  '/v1/text/measure': TextMeasureRequest;
  '/v1/text/layout': TextLayoutRequest;
  '/v1/list/layout': ListLayoutRequest | KeptListLayoutRequest;
}

/** Each POST feature path's 200 answer. */
export interface BatchAnswers {
  '/v1/outline/expansion': OutlineExpansionResponse;
  '/v1/outline/rows': OutlineRowsResponse;
  '/v1/flow/layout': FlowLayoutResponse;
  '/v1/sections/toggle': SectionsToggleResponse;
  '/v1/drawer/state': DrawerStateResponse;
  '/v1/text/measure': TextMeasureResponse;
  '/v1/text/layout': TextLayoutResponse;
  '/v1/list/layout': ListLayoutResponse;
}

export type BatchPath = keyof BatchBodies;

/** One request of a batch: a feature path and the body that endpoint takes. */
export type BatchEntry<P extends BatchPath = BatchPath> = P extends BatchPath ? { path: P; body: BatchBodies[P] } : never;

/** 1 to 100 entries. */
export interface BatchRequest {
  requests: BatchEntry[];
}

/** One entry's answer: the endpoint's answer with 200, else its problem (pointers into the entry's body). */
export type BatchEntryResponse<P extends BatchPath = BatchPath> =
  | { status: 200; body: BatchAnswers[P] }
  | { status: 422 | 503; body: ProblemDetails };

/** The answers in request order; for a tuple of entries, each typed by its entry's path. */
export interface BatchResponse<E extends BatchEntry[] = BatchEntry[]> {
  responses: { [K in keyof E]: E[K] extends { path: infer P extends BatchPath } ? BatchEntryResponse<P> : BatchEntryResponse };
}

// ---- outline -------------------------------------------------------------------------------------

/** A node of the client's tree; with other keys (idKey, childrenKey, parentKey) any object. */
export interface OutlineNode {
  id?: Id;
  children?: OutlineNode[] | null;
  parent?: Id | null;
  [member: string]: unknown;
}

/** The tree: nested (default) or flat (with parentKey). */
export interface OutlineTreeInput {
  nodes: OutlineNode[];
  idKey?: string | null;
  childrenKey?: string | null;
  parentKey?: string | null;
}

/** Label search: folded per scalar (NFD, full case folding unless caseSensitive, Mn removed unless diacriticSensitive). */
export interface OutlineSearch {
  /** 1 to 256 Unicode scalars. */
  query: string;
  /** The member holding each node's label (default "label"). */
  labelKey?: string | null;
  mode?: 'substring' | 'prefix' | 'words' | null;
  caseSensitive?: boolean | null;
  diacriticSensitive?: boolean | null;
}

/** Half-open [start, end) in UTF-16 code units of the label: `label.slice(start, end)`. */
export type OutlineRange = [number, number];

export interface OutlineExpansionRequest extends OutlineTreeInput {
  selection?: Id | null;
  selections?: Id[] | null;
  /** Instead of a selection: expand the way to every match; the answer has `matches`, not `paths`. */
  search?: OutlineSearch | null;
}

export interface OutlineExpansionResponse {
  expand: Id[];
  /** Absent with a search. */
  paths?: { id: Id; found: boolean; path: Id[] }[];
  /** With a search: the matching nodes in pre-order. */
  matches?: { id: Id; ranges: OutlineRange[] }[];
}

export interface OutlineRowsRequest extends OutlineTreeInput {
  selection?: Id | null;
  expanded?: Id[] | null;
  offset?: number | null;
  limit?: number | null;
  includeNoSelection?: boolean | null;
  /** Only the matches and the way to them, opened; each row then has `match`. */
  search?: OutlineSearch | null;
  /** Every visible row's label laid out: each row then has `height` and `offset`, the answer `totalHeight`. */
  rowHeights?: OutlineRowHeights | null;
}

/** How a picker's rows wrap their labels (a list's paragraphs at the width less depth × indent and the padding). */
export interface OutlineRowHeights extends ParagraphProperties {
  font: TextFont;
  fontFaces?: FontFaceRule[] | null;
  width: number;
  /** The member each node's label is read from (default "label"). */
  labelKey?: string | null;
  indent?: number | null;
  padding?: { top?: number | null; bottom?: number | null; leading?: number | null; trailing?: number | null } | null;
  minHeight?: number | null;
  gap?: number | null;
  /** With it, the answer has `selectedScrollOffset`: where to scroll to show the selected row. */
  viewportHeight?: number | null;
  /** Where the picker is scrolled now (default 0). */
  scrollOffset?: number | null;
}

export interface OutlineRow {
  index: number;
  id: Id;
  depth: number;
  parent: Id | null;
  expandable: boolean;
  expanded: boolean;
  selected: boolean;
  /** With a search: the label's highlight ranges, or null for an ancestor on the way. */
  match?: { ranges: OutlineRange[] } | null;
  /** With rowHeights: the row's height and its top among all visible rows. */
  height?: number;
  offset?: number;
}

export interface OutlineRowsResponse {
  rows: OutlineRow[];
  totalRows: number;
  selectedRow: number | null;
  /** With a search: the matching nodes in the whole tree. */
  matchCount?: number;
  /** With rowHeights: every visible row stacked; with its viewportHeight, where to scroll to show the selected row. */
  totalHeight?: number;
  selectedScrollOffset?: number | null;
  noSelection?: { selected: boolean };
}

// ---- flow ----------------------------------------------------------------------------------------

/** Either width and height, or text (then the request needs font). */
export interface FlowItem {
  id?: Id | null;
  width?: number;
  height?: number;
  text?: string | null;
  breakBefore?: boolean | null;
  /** A text item's outer width limit: a wider label is cut with an ellipsis, or wrapped to maxLines (default 1). */
  maxWidth?: number | null;
  maxLines?: number | null;
}

export interface FlowLayoutRequest {
  containerWidth: number;
  items: FlowItem[];
  horizontalSpacing?: number | null;
  verticalSpacing?: number | null;
  columnGap?: number | null;
  rowGap?: number | null;
  alignment?: 'leading' | 'center' | 'trailing' | 'spaceBetween' | 'spaceAround' | 'spaceEvenly' | null;
  rowAlignment?: 'top' | 'center' | 'bottom' | null;
  direction?: 'ltr' | 'rtl' | null;
  maxRows?: number | null;
  overflowIndicator?: { width: number; height: number } | { text: string } | null;
  lineBreaking?: 'greedy' | 'balanced' | null;
  pixelScale?: number | null;
  font?: TextFont | null;
  fontFaces?: FontFaceRule[] | null;
  labelPadding?: { top?: number | null; leading?: number | null; bottom?: number | null; trailing?: number | null } | null;
  /** Every label's (the chip's too) CSS white-space: each is then a paragraph in that mode (a line feed it keeps ends a
   * line) and answers its lines. Absent: one line as `pre` (narrowed to more lines: `pre-wrap`), control characters refused. */
  whiteSpace?: 'normal' | 'pre-wrap' | 'nowrap' | 'pre' | 'pre-line' | 'break-spaces' | null;
  /** A label's lines in its chip (a wrapped or multi-line label). */
  textAlign?: 'start' | 'end' | 'left' | 'right' | 'center' | 'justify' | null;
  /** A number of spaces, or a length such as "20px" (default 8). */
  tabSize?: number | string | null;
  /** px as a number, or "normal", "1.5px", "0.05em" (of the font size); negative narrows. */
  letterSpacing?: number | string | null;
  wordSpacing?: number | string | null;
}

export interface FlowPlacedItem {
  id?: Id;
  index: number;
  row: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** A text item with maxWidth, or any with the request's whiteSpace: its label's lines (from the content box), and
   * whether it was cut. */
  lines?: TextLine[];
  lineCount?: number;
  truncated?: boolean;
  ellipsis?: TextEllipsis;
}

export interface FlowRow {
  y: number;
  height: number;
  width: number;
  start: number;
  count: number;
}

export interface FlowLayoutResponse {
  items: FlowPlacedItem[];
  rows: FlowRow[];
  size: { width: number; height: number };
  hiddenCount: number;
  /** A chip given as text, with the request's whiteSpace: its label's lines for the count it shows. */
  overflowIndicator?: { x: number; y: number; width: number; height: number; count: number;
    lines?: TextLine[]; lineCount?: number; truncated?: boolean; ellipsis?: TextEllipsis };
}

// ---- sections ------------------------------------------------------------------------------------

export interface SectionsSection {
  id: Id;
  items?: unknown[] | null;
}

export type SectionsAction =
  | { type: 'toggle' | 'expand' | 'collapse'; section: Id }
  | { type: 'expandAll' | 'collapseAll' };

export interface SectionsToggleRequest {
  sections: SectionsSection[];
  expanded?: Id[] | null;
  mode?: 'multiple' | 'single' | null;
  collapsible?: boolean | null;
  toggle?: Id | null;
  actions?: SectionsAction[] | null;
}

export interface SectionsSectionView {
  id: Id;
  expanded: boolean;
  headerDisabled: boolean;
  icon: 'chevron.up' | 'chevron.down';
  showDivider: boolean;
  items: unknown[];
  itemCount: number;
}

export interface SectionsToggleResponse {
  expanded: Id[];
  changed: Id[];
  sections: SectionsSectionView[];
}

// ---- drawer --------------------------------------------------------------------------------------

export type DrawerSpring =
  | { response: number; dampingFraction: number; duration?: null; bounce?: null }
  | { duration: number; bounce: number; response?: null; dampingFraction?: null };

export interface DrawerStateRequest {
  isPresented?: boolean | null;
  action?: 'toggle' | 'open' | 'close' | 'tapMask' | null;
  container: { width: number; height: number };
  drawerWidth?: number | null;
  edge?: 'leading' | 'trailing' | null;
  layoutDirection?: 'ltr' | 'rtl' | null;
  safeAreaInsets?: { top?: number | null; leading?: number | null; bottom?: number | null; trailing?: number | null } | null;
  maskOpacity?: number | null;
  spring?: DrawerSpring | null;
  frameRate?: number | null;
  /** Where the panel is mid-flight (its x and velocity); only with an action. */
  from?: { x: number; velocity: number } | null;
}

export interface DrawerRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DrawerTransition {
  panel: { fromX: number; toX: number };
  mask: { fromOpacity: number; toOpacity: number };
  spring: { response: number; dampingFraction: number; stiffness: number; damping: number; settlingDuration: number };
  keyframes: { t: number; progress: number }[];
  /** `transition: transform <duration> <easing>`. */
  css: { duration: string; easing: string };
}

export interface DrawerStateResponse {
  isPresented: boolean;
  changed: boolean;
  panel: { frame: DrawerRect; contentFrame: DrawerRect; visible: boolean };
  mask: { frame: DrawerRect; opacity: number; visible: boolean };
  /** Present only when the action changed the state. */
  transition?: DrawerTransition;
}

// ---- text ----------------------------------------------------------------------------------------

/** A CSS font-family list of families from GET /v1/fonts (or sans-serif, serif, monospace, system-ui) or declared in
 * `fontFaces`, a size in px, and the element's other font properties (CSS syntax). */
export interface TextFont {
  family: string;
  size: number;
  weight?: number | null;
  style?: 'normal' | 'italic' | 'oblique' | null;
  /** font-stretch: a keyword (`condensed`) or a percentage (`87.5%`). */
  stretch?: string | null;
  /** font-feature-settings: `"liga" 0, "tnum"`. */
  featureSettings?: string | null;
  /** font-variation-settings: `"wght" 450, "slnt" -5`. */
  variationSettings?: string | null;
  opticalSizing?: 'auto' | 'none' | null;
}

/** An @font-face rule over a stored font (`src`: its id); the descriptors in CSS syntax. */
export interface FontFaceRule {
  family: string;
  src: string;
  /** A face of a collection (default 0). */
  index?: number | null;
  /** `400`, or a range `100 900`. */
  weight?: string | null;
  /** `normal`, `italic`, `oblique`, `oblique 10deg 20deg`. */
  style?: string | null;
  /** `condensed`, `75%`, or a range `75% 125%`. */
  stretch?: string | null;
  /** `U+0000-00FF, U+0131`. */
  unicodeRange?: string | null;
  featureSettings?: string | null;
  variationSettings?: string | null;
}

/** A stored font: its format and size as sent, and its faces. */
export interface FontMetadata {
  id: string;
  format: 'truetype' | 'opentype' | 'collection' | 'woff' | 'woff2';
  size: number;
  sanitizedSize: number;
  faces: {
    index: number; family: string; weight: number; style: 'normal' | 'italic'; stretch: string;
    axes: { tag: string; min: number; default: number; max: number }[];
    /** Each one's coordinate on every axis, in the order of `axes`. */
    namedInstances: { name: string; coordinates: number[] }[];
  }[];
}

export interface TextMeasureRequest {
  font: TextFont;
  fontFaces?: FontFaceRule[] | null;
  texts: string[];
  /** px as a number, or "normal", "1.5px", "0.05em" (of the font size); negative narrows. */
  letterSpacing?: number | string | null;
  wordSpacing?: number | string | null;
}

export interface TextMeasureResponse {
  font: { size: number; ascent: number; descent: number; lineGap: number; lineHeight: number };
  texts: { width: number; height: number }[];
}

export interface TextLayoutRequest {
  font: TextFont;
  fontFaces?: FontFaceRule[] | null;
  texts: string[];
  /** Exactly one of width and widths (1–16 widths: each text answers `layouts`). */
  width?: number;
  widths?: number[];
  whiteSpace?: 'normal' | 'pre-wrap' | 'nowrap' | 'pre' | 'pre-line' | 'break-spaces' | null;
  wordBreak?: 'normal' | 'break-all' | 'keep-all' | null;
  overflowWrap?: 'normal' | 'anywhere' | 'break-word' | null;
  maxLines?: number | null;
  textOverflow?: 'clip' | 'ellipsis' | null;
  /** px as a number; or "normal", a number times the font size ("1.5"), a percentage ("150%") or a length ("24px"). */
  lineHeight?: number | string | null;
  /** A number of spaces, or a length such as "20px" (default 8). */
  tabSize?: number | string | null;
  textAlign?: 'start' | 'end' | 'left' | 'right' | 'center' | 'justify' | null;
  textAlignLast?: 'auto' | 'start' | 'end' | 'left' | 'right' | 'center' | 'justify' | null;
  /** px as a number, or "24px", "-8px", "10%" (of the width). */
  textIndent?: number | string | null;
  /** CSS text-wrap-style: greedy (wrap, stable), or Chromium's balanced or pretty breaks. */
  textWrap?: 'wrap' | 'balance' | 'pretty' | 'stable' | null;
  contentWidths?: boolean | null;
  /** px as a number, or "normal", "1.5px", "0.05em" (of the font size); negative narrows. */
  letterSpacing?: number | string | null;
  wordSpacing?: number | string | null;
  /** manual (default): a break at a soft hyphen shows a hyphen; none: no break there. */
  hyphens?: 'manual' | 'none' | null;
}

/** A line: UTF-16 offsets of the text as sent (lines tile it), what is drawn, and its box. */
export interface TextLine { start: number; end: number; width: number; top: number; height: number; baseline: number; forcedBreak?: true;
  /** From the box's start edge (right edge in a right-to-left paragraph); absent when 0. */
  x?: number;
  /** On a line broken at a soft hyphen: the hyphen to draw after its text ("\u2010" or "-"), counted in width. */
  hyphen?: '\u2010' | '-';
  /** On a justified line: the px added at each expansion opportunity. */
  expansion?: number }

/** Where the ellipsis is drawn: after the visible text (ending at `end`) of `line`, `x` from the line's start edge. */
export interface TextEllipsis { line: number; end: number; x: number; width: number; text: string }

export interface TextParagraph {
  lines: TextLine[];
  height: number;
  width: number;
  lineCount: number;
  truncated: boolean;
  ellipsis?: TextEllipsis;
}

export interface TextLayoutResponse {
  font: { size: number; ascent: number; descent: number; lineGap: number; lineHeight: number };
  texts: ((TextParagraph | { layouts: TextParagraph[] }) & { minContentWidth?: number; maxContentWidth?: number })[];
}

/** The paragraph properties of a text layout, shared by a list's paragraphs or given by one of them. */
export interface ParagraphProperties {
  whiteSpace?: 'normal' | 'pre-wrap' | 'nowrap' | 'pre' | 'pre-line' | 'break-spaces' | null;
  wordBreak?: 'normal' | 'break-all' | 'keep-all' | null;
  overflowWrap?: 'normal' | 'anywhere' | 'break-word' | null;
  maxLines?: number | null;
  textOverflow?: 'clip' | 'ellipsis' | null;
  /** px as a number; or "normal", a number times the font size ("1.5"), a percentage ("150%") or a length ("24px"). */
  lineHeight?: number | string | null;
  textWrap?: 'wrap' | 'balance' | 'pretty' | 'stable' | null;
}

/** A row of a list: its paragraphs, padding (inside the row), the height below its text, its least height. */
export interface ListRow {
  /** Names the row for `anchor`. */
  key?: Id | null;
  texts?: (string | ({ text: string } & ParagraphProperties))[] | null;
  padding?: { top?: number | null; bottom?: number | null; leading?: number | null; trailing?: number | null } | null;
  extraHeight?: number | null;
  minHeight?: number | null;
}

/** Where the list is scrolled: the viewport's top and height, and rows to render beyond it on each side. */
export interface ListScroll {
  offset?: number | null;
  viewportHeight: number;
  overscan?: number | null;
}

/** The row at the viewport's top (by its key) and how far the viewport's top is below that row's top. */
export interface ListAnchor {
  key: Id;
  offset?: number | null;
}

export interface ListLayoutRequest extends ParagraphProperties {
  /** Only in a request naming a kept list (KeptListLayoutRequest). */
  list?: never;
  font: TextFont;
  fontFaces?: FontFaceRule[] | null;
  rows: ListRow[];
  /** Exactly one of width and widths (1–16): one layout per width. */
  width?: number;
  widths?: number[];
  /** px between a row's paragraphs. */
  paragraphGap?: number | null;
  /** px between rows. */
  gap?: number | null;
  /** Adds `window` to each layout: the rows to render. */
  scroll?: ListScroll | null;
  /** The row at the viewport's top and how far the viewport's top is below it: adds `anchor` to each layout. */
  anchor?: ListAnchor | null;
  /** true: the server keeps the list once laid out (its rows, paragraphs and their shaping), and the answer's `list`
   * names it for KeptListLayoutRequest. */
  keep?: boolean | null;
}

/** What a kept list keeps: a request naming it sends none of them (each is a 422 at its pointer). */
export type KeptListMember = 'font' | 'fontFaces' | 'rows' | 'paragraphGap' | 'gap' | keyof ParagraphProperties;

/** A list kept before (`keep`), named instead of sending its rows: laid out at other widths, scrolled or anchored, and
 * answered as the rows sent again would be. Its font, rows, gaps and paragraph properties are the kept list's. */
export interface KeptListLayoutRequest extends Partial<Record<KeptListMember, never>> {
  /** The id the answer to a request with `keep` named. */
  list: string;
  /** Exactly one of width and widths (1–16): one layout per width. */
  width?: number;
  widths?: number[];
  scroll?: ListScroll | null;
  /** Its key is one of the kept rows' keys. */
  anchor?: ListAnchor | null;
  /** Ignored: the list is kept already. */
  keep?: boolean | null;
}

/** A list at one width: per row (plain arrays in row order) its height, top, lines and truncation. */
export interface ListLayout {
  width: number;
  heights: number[];
  offsets: number[];
  total: number;
  lineCounts: number[];
  truncated: boolean[];
  /** With `scroll`: the rows to render, start to end exclusive. */
  window?: { start: number; end: number };
  /** With `anchor`: where to scroll to keep its row in place (null when no row has its key). */
  anchor?: { index: number; scrollOffset: number } | null;
}

export interface ListLayoutResponse {
  /** One per width, in order. */
  layouts: ListLayout[];
  /** With `keep`, or a kept list named: the kept list's id (32 hex digits), null when the server could not keep it (too
   * large, out of memory). Absent otherwise. */
  list?: string | null;
}

/** The shapes virtualized-list libraries take, from one layout of `POST /v1/list/layout`. */
export interface TanStackVirtualItem { key: string | number | bigint; index: number; start: number; end: number; size: number; lane: number }

/** Each row's slot: its height plus the gap below it (none below the last). */
export function listSlots(layout: ListLayout): number[];
/** TanStack Virtual's `initialMeasurementsCache` (give the virtualizer the request's `gap`, and these `paddingStart`, `scrollMargin`). */
export function tanstackMeasurements(
  layout: ListLayout, options?: { keys?: readonly (string | number | bigint)[]; paddingStart?: number; scrollMargin?: number },
): TanStackVirtualItem[];
/** react-virtuoso's `heightEstimates`. */
export function virtuosoHeightEstimates(layout: ListLayout): number[];
/** FlashList's `overrideItemLayout`: sets each item's `size`. */
export function flashListOverrideItemLayout(layout: ListLayout): (itemLayout: { span?: number; size?: number }, item: unknown, index: number) => void;
/** react-window's `itemSize(index)`. */
export function reactWindowItemSize(layout: ListLayout): (index: number) => number;

export interface FontsResponse {
  fonts: { family: string; weight: number; style: 'normal' | 'italic' }[];
}
