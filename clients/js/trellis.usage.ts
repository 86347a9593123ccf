// Type-checked with the declarations (`tsc --strict --noEmit`, in make js-client-test): a call of every
// method of trellis.d.ts as a TypeScript program would write it. Never run.
import {
  createClient, endpoints, fontId, FONT_NOT_STORED, LIST_NOT_KEPT, TrellisProblem, listSlots, tanstackMeasurements, virtuosoHeightEstimates,
  flashListOverrideItemLayout, reactWindowItemSize,
} from './trellis';
import type {
  BatchEntry, BatchResponse, DrawerStateResponse, KeptListLayoutRequest, ListAnchor, ListLayout, ListLayoutRequest, ListLayoutResponse, TanStackVirtualItem, FlowLayoutResponse, FontMetadata,
  FontsResponse, OutlineExpansionResponse,
  OutlineRowsResponse, ProblemDetails, SectionsToggleResponse, TextLayoutResponse, TextMeasureResponse, TrellisClient,
} from './trellis';

async function everyMethod(): Promise<void> {
  const client: TrellisClient = createClient({ baseUrl: 'http://localhost:8080', headers: { 'X-Client': 'usage' }, requestId: () => 'id-1' });
  const nodes = [{ id: 'root', children: [{ id: 'docs' }] }];
  const expansion: OutlineExpansionResponse = await client.outlineExpansion({ nodes, selection: 'docs' });
  const rows: OutlineRowsResponse = await client.outlineRows(
    { nodes, selection: 'docs', offset: 0, limit: 10, search: { query: 'do', labelKey: 'title', mode: 'prefix' },
      rowHeights: { font: { family: 'DejaVu Sans', size: 15 }, width: 280, labelKey: 'title', indent: 20, viewportHeight: 400, maxLines: 2 } },
    { requestId: 'rows-1', signal: new AbortController().signal });
  const flow: FlowLayoutResponse = await client.flowLayout({
    containerWidth: 300, items: [{ id: 1, width: 40, height: 20 }, { text: 'Swift', maxWidth: 120, maxLines: 2 }],
    font: { family: 'DejaVu Sans', size: 16 }, labelPadding: { top: 8, leading: 16 }, maxRows: 1, overflowIndicator: { text: '+{n}' },
  });
  const sections: SectionsToggleResponse = await client.sectionsToggle({ sections: [{ id: 'a' }], actions: [{ type: 'expandAll' }] });
  const drawer: DrawerStateResponse = await client.drawerState({ container: { width: 390, height: 844 }, action: 'open' });
  const measured: TextMeasureResponse = await client.textMeasure({ font: { family: 'sans-serif', size: 17 }, texts: ['Swift'] });
  const laidOut: TextLayoutResponse = await client.textLayout({ font: { family: 'serif', size: 16 }, texts: ['a b'], width: 100 });
  const list: ListLayoutResponse = await client.listLayout({
    font: { family: 'DejaVu Sans', size: 15 }, widths: [320, 480], gap: 8, paragraphGap: 4, maxLines: 6,
    rows: [{ key: 'm1', texts: ['Hi', { text: 'Long message', maxLines: 2, textOverflow: 'ellipsis' }], padding: { top: 8, leading: 12 }, extraHeight: 20 },
      { key: 2, minHeight: 44 }],
    scroll: { offset: 0, viewportHeight: 600, overscan: 2 }, anchor: { key: 'm1', offset: 4 },
  });
  const first: ListLayout = list.layouts[0];
  const items: TanStackVirtualItem[] = tanstackMeasurements(first, { keys: ['m1', 2], paddingStart: 8 });
  const estimates: number[] = virtuosoHeightEstimates(first);
  const overrideItemLayout = flashListOverrideItemLayout(first);
  overrideItemLayout({ span: 1 }, { id: 'm1' }, 0);
  const itemSize: number = reactWindowItemSize(first)(0) + listSlots(first)[0];
  const shown: number | undefined = first.window?.end;
  const scrollTo: number | undefined = first.anchor?.scrollOffset;
  void [items, estimates, itemSize, shown, scrollTo];
  // A kept list: sent once with keep, then named at other widths; one the server no longer keeps is sent again.
  const chat: ListLayoutRequest = { font: { family: 'DejaVu Sans', size: 15 }, rows: [{ key: 'm1', texts: ['Hi'] }], widths: [200, 320], keep: true };
  const kept: ListLayoutResponse = await client.listLayout(chat);
  const id: string | null | undefined = kept.list;
  const at: ListAnchor = { key: 'm1', offset: 3 };
  const named: KeptListLayoutRequest = { list: id ?? '', widths: [250, 400], anchor: at, scroll: { viewportHeight: 600 } };
  let resized: ListLayoutResponse;
  try {
    resized = await client.listLayout(named);
  } catch (error) {
    if (!(error instanceof TrellisProblem) || error.problem.type !== LIST_NOT_KEPT) throw error;
    resized = await client.listLayout({ ...chat, widths: [250, 400], anchor: at });
  }
  const notKept: 'tag:trellis,2026:list-not-kept' = LIST_NOT_KEPT;
  void [resized.layouts[0].anchor, notKept];
  // @ts-expect-error: the rows are the kept list's; a request naming it does not send them.
  await client.listLayout({ list: 'id', width: 320, rows: [] });
  // @ts-expect-error: nor its paragraph properties.
  await client.listLayout({ list: 'id', width: 320, maxLines: 2 });
  await client.batch({ requests: [{ path: '/v1/list/layout', body: { list: 'id', width: 320 } }] });
  const faces: FontsResponse = await client.fonts();
  // Uploaded fonts: kept by the client, uploaded when a request finds one not stored.
  const inter: string = await client.addFont(new Uint8Array([0x77, 0x4f, 0x46, 0x32]));
  const same: string = await fontId(new ArrayBuffer(4));
  const stored: boolean = await client.hasFont(inter);
  const metadata: FontMetadata = await client.storeFont(inter);
  const again: FontMetadata = await client.fontMetadata(metadata.id);
  const axes: number = again.faces[0].axes.length;
  const inInter: TextMeasureResponse = await client.textMeasure({
    font: { family: 'Inter, sans-serif', size: 16, weight: 450, stretch: '100%', featureSettings: '"tnum"', variationSettings: '"slnt" -5', opticalSizing: 'auto' },
    fontFaces: [{ family: 'Inter', src: inter, weight: '100 900', style: 'oblique 0deg 10deg', unicodeRange: 'U+0000-00FF' }],
    texts: ['Swift'],
  });
  const notStored: string = FONT_NOT_STORED;
  void [same, stored, axes, inInter, notStored];
  const anything: unknown = await client.post(endpoints.flowLayout, '{"containerWidth":1,"items":[]}');

  // A batch typed by path: each entry's body is checked against its endpoint's request, and each
  // answer is typed as that endpoint's answer once its status is 200.
  const screen = await client.batch({ requests: [
    { path: '/v1/outline/rows', body: { nodes, selection: 'docs' } },
    { path: '/v1/flow/layout', body: { containerWidth: 300, items: [{ width: 40, height: 20 }] } },
    { path: '/v1/sections/toggle', body: { sections: [{ id: 'a' }], toggle: 'a' } },
    { path: '/v1/drawer/state', body: { container: { width: 390, height: 844 } } },
  ] });
  const [picker, chips] = screen.responses;
  if (picker.status === 200) { const visible: number = picker.body.totalRows; void visible; }
  if (chips.status === 200) { const hidden: number = chips.body.hiddenCount; void hidden; } else { const problem: ProblemDetails = chips.body; void problem; }
  const entries: BatchEntry[] = [{ path: '/v1/text/measure', body: { font: { family: 'DejaVu Sans', size: 16 }, texts: [] } }];
  const any: BatchResponse = await client.batch({ requests: entries });
  // @ts-expect-error: a flow body is not a text measure request.
  await client.batch({ requests: [{ path: '/v1/text/measure', body: { containerWidth: 300, items: [] } }] });
  // @ts-expect-error: the batch is not a path a batch can hold.
  await client.batch({ requests: [{ path: '/v1/batch', body: { requests: [] } }] });

  try {
    await client.flowLayout({ containerWidth: -1, items: [] });
  } catch (error) {
    if (error instanceof TrellisProblem) {
      const pointers: string[] = error.errors.map((e) => e.pointer);
      const status: number = error.status;
      const id: string | null = error.requestId;
      void [pointers, status, id];
    }
  }
  void [expansion, rows, flow, sections, drawer, measured, laidOut, faces, anything, any, new TrellisProblem({ type: 'about:blank', title: 'x', status: 400, detail: 'y' })];
}
void everyMethod;
