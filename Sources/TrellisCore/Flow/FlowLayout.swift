/// The flow layout: CSS flexbox with `flex-wrap: wrap` and `flex: none` cells; `compute` reads as the spec's steps, one function per step.
public enum FlowLayout: Sendable, Equatable {
    /// Lays out a validated request; greedy is O(n), balanced O(n) per bisection step (at most 64 steps).
    public static func compute(_ request: FlowInput) -> FlowOutput {
        let cells = outerSizes(of: request.items, request: request)
        let limit = wrapLimit(containerWidth: request.containerWidth)
        let allLines = breakLines(cells: cells, items: request.items, request: request, limit: limit)
        let shownLines = truncate(allLines, maxRows: request.maxRows)
        let (lines, chipCell) = makeRoomForOverflowIndicator(
            shownLines, itemCount: request.items.count, cells: cells, request: request, limit: limit
        )
        var result = placeLines(lines, chipCell: chipCell, cells: cells, request: request)
        if request.direction == .rtl {
            result = mirroredForRTL(result, containerWidth: request.containerWidth)
        }
        if let scale = request.pixelScale {
            result = snappedToDevicePixels(result, scale: scale)
        }
        return result
    }

    /// The outer (padded) sizes of every item's cell, as the line-breaking and placing steps read them.
    struct OuterSizes {
        var widths: [Double]
        var heights: [Double]
    }

    /// CSS Flexbox §9.2 step 3 for every item: the outer size of each cell.
    static func outerSizes(of items: [FlowItem], request: FlowInput) -> OuterSizes {
        OuterSizes(
            widths: items.map { outerSize($0.width, padding: request.horizontalSpacing) },
            heights: items.map { outerSize($0.height, padding: request.verticalSpacing) }
        )
    }

    /// CSS Flexbox §9.2 step 3 with `flex: none`: the outer size is the item plus the seed's padding on both sides.
    static func outerSize(_ size: Double, padding: Double) -> Double {
        size + 2 * padding
    }

    /// Rule: a cell overflows when it exceeds containerWidth by more than 1e-9 × max(1, containerWidth).
    static func wrapLimit(containerWidth: Double) -> Double {
        containerWidth + 1e-9 * max(1, containerWidth)
    }

    /// CSS Flexbox §9.3 step 5 (collect flex items into flex lines), greedy or balanced as the request asks.
    static func breakLines(cells: OuterSizes, items: [FlowItem], request: FlowInput, limit: Double) -> [FlowLine] {
        switch request.lineBreaking {
        case .greedy:
            return collectLines(cellWidths: cells.widths, items: items, gap: request.columnGap, limit: limit)
        case .balanced:
            return balanceLines(cellWidths: cells.widths, items: items, gap: request.columnGap, limit: limit)
        }
    }

    /// Rule for `maxRows`: only the first maxRows lines are shown; the items after them are hidden.
    static func truncate(_ lines: [FlowLine], maxRows: Int?) -> [FlowLine] {
        Array(lines.prefix(maxRows ?? lines.count))
    }

    /// Rule for `overflowIndicator`: when items are hidden, the chip's cell joins the last visible line, which gives up items to make room.
    static func makeRoomForOverflowIndicator(
        _ lines: [FlowLine], itemCount: Int, cells: OuterSizes, request: FlowInput, limit: Double
    ) -> (lines: [FlowLine], chipCell: Size?) {
        guard let chip = request.overflowIndicator, let last = lines.last, last.start + last.count < itemCount else {
            return (lines, nil)
        }
        let cell = Size(
            width: outerSize(chip.width, padding: request.horizontalSpacing),
            height: outerSize(chip.height, padding: request.verticalSpacing)
        )
        var lines = lines
        lines[lines.count - 1] = makeRoomForIndicator(
            last, indicatorWidth: cell.width, cellWidths: cells.widths, gap: request.columnGap, limit: limit
        )
        return (lines, cell)
    }

    /// CSS Flexbox §9.6 step 16 (align-content: flex-start) with row-gap: lines stacked from the top; the chip ends the last line.
    static func placeLines(_ lines: [FlowLine], chipCell: Size?, cells: OuterSizes, request: FlowInput) -> FlowOutput {
        let itemCount = request.items.count
        let visibleCount = lines.last.map { $0.start + $0.count } ?? 0
        var placed: [FlowPlacedItem] = []
        placed.reserveCapacity(visibleCount)
        var rows: [FlowRow] = []
        rows.reserveCapacity(lines.count)
        var indicator: FlowOverflowIndicator?
        var top = 0.0
        for (row, line) in lines.enumerated() {
            if row > 0 {
                top += request.rowGap
            }
            let lineChip = row == lines.count - 1 ? chipCell : nil
            let (placedRow, chipRect) = placeLine(
                line, row: row, top: top, chipCell: lineChip, cells: cells, request: request, into: &placed)
            if let chipRect {
                indicator = FlowOverflowIndicator(rect: chipRect, count: itemCount - visibleCount)
            }
            rows.append(placedRow)
            top += placedRow.height
        }
        return FlowOutput(
            items: placed,
            rows: rows,
            size: Size(width: request.containerWidth, height: rows.last.map { $0.y + $0.height } ?? 0),
            hiddenCount: itemCount - visibleCount,
            overflowIndicator: indicator
        )
    }

    /// CSS Flexbox §9.4 step 8, §9.5 step 12 and §9.6 step 14 for one line: its row, each item's own
    /// rectangle inside its padding (appended to `placed`, in order) and the chip's when it ends the line.
    static func placeLine(
        _ line: FlowLine, row: Int, top: Double, chipCell: Size?, cells: OuterSizes, request: FlowInput,
        into placed: inout [FlowPlacedItem]
    ) -> (row: FlowRow, chip: Rect?) {
        let range = line.start..<(line.start + line.count)
        let chip = chipCell.flatMap { cell in request.overflowIndicator.map { (cell: cell, own: $0) } }
        let lineHeight = max(lineCrossSize(cellHeights: cells.heights[range]), chip?.cell.height ?? 0)
        let spacing = distributeFreeSpace(
            request.containerWidth - line.width, cellCount: line.count + (chip == nil ? 0 : 1), alignment: request.alignment)
        // §9.5 step 12: cells from the leading edge, gaps and distributed space between them.
        var x = spacing.leading
        func place(cellWidth: Double, cellHeight: Double, own: Size) -> Rect {
            let cellY = alignInLine(cellHeight: cellHeight, lineTop: top, lineHeight: lineHeight, alignment: request.rowAlignment)
            let rect = Rect(
                x: x + request.horizontalSpacing, y: cellY + request.verticalSpacing, width: own.width, height: own.height)
            x += cellWidth + request.columnGap + spacing.between
            return rect
        }
        for index in range {
            let item = request.items[index]
            let rect = place(
                cellWidth: cells.widths[index], cellHeight: cells.heights[index], own: Size(width: item.width, height: item.height))
            placed.append(FlowPlacedItem(index: index, row: row, rect: rect))
        }
        let chipRect = chip.map { place(cellWidth: $0.cell.width, cellHeight: $0.cell.height, own: $0.own) }
        return (FlowRow(y: top, height: lineHeight, width: line.width, start: line.start, count: line.count), chipRect)
    }

    /// CSS Flexbox §9.3 step 5 (collect flex items into flex lines) plus a forced break before an item with `breakBefore`; stops when `visit` returns false.
    static func forEachLine(
        cellWidths: [Double], items: [FlowItem], gap: Double, limit: Double, _ visit: (FlowLine) -> Bool
    ) {
        guard !cellWidths.isEmpty else { return }
        var line = FlowLine(start: 0, count: 1, width: cellWidths[0])
        for index in 1..<cellWidths.count {
            let extended = line.width + gap + cellWidths[index]
            if items[index].breakBefore || extended > limit {
                guard visit(line) else { return }
                line = FlowLine(start: index, count: 1, width: cellWidths[index])
            } else {
                line.count += 1
                line.width = extended
            }
        }
        _ = visit(line)
    }

    /// CSS Flexbox §9.3 step 5: all flex lines at a wrap limit.
    static func collectLines(cellWidths: [Double], items: [FlowItem], gap: Double, limit: Double) -> [FlowLine] {
        var lines: [FlowLine] = []
        forEachLine(cellWidths: cellWidths, items: items, gap: gap, limit: limit) { line in
            lines.append(line)
            return true
        }
        return lines
    }

    /// Balanced line breaking's feasibility test: line count (stopping past `cap`) and widest line that fits within `limit`.
    static func probeLines(
        cellWidths: [Double], items: [FlowItem], gap: Double, limit: Double, cap: Int
    ) -> (count: Int, widestFitting: Double) {
        var count = 0
        var widest = 0.0
        forEachLine(cellWidths: cellWidths, items: items, gap: gap, limit: limit) { line in
            count += 1
            if line.width <= limit {
                widest = max(widest, line.width)
            }
            return count <= cap
        }
        return (count, widest)
    }

    /// Rule: greedy at the smallest limit keeping greedy's line count, by exact bisection over Double bit patterns.
    static func balanceLines(cellWidths: [Double], items: [FlowItem], gap: Double, limit: Double) -> [FlowLine] {
        let greedy = probeLines(cellWidths: cellWidths, items: items, gap: gap, limit: limit, cap: .max)
        var lower: UInt64 = 0
        var upper = orderKey(greedy.widestFitting)
        while lower < upper {
            let middle = lower + (upper - lower) / 2
            let probe = probeLines(
                cellWidths: cellWidths, items: items, gap: gap, limit: Double(bitPattern: middle), cap: greedy.count
            )
            if probe.count <= greedy.count {
                upper = orderKey(probe.widestFitting)
            } else {
                lower = middle + 1
            }
        }
        return collectLines(cellWidths: cellWidths, items: items, gap: gap, limit: Double(bitPattern: upper))
    }

    /// Non-negative Doubles order like their bit patterns once -0 is made +0.
    static func orderKey(_ value: Double) -> UInt64 {
        (value + 0).bitPattern
    }

    /// Rule for `overflowIndicator`: take items off the end of the last visible row until the chip cell fits; a chip that never fits gets the row alone.
    static func makeRoomForIndicator(
        _ line: FlowLine, indicatorWidth: Double, cellWidths: [Double], gap: Double, limit: Double
    ) -> FlowLine {
        var prefixWidths: [Double] = []
        prefixWidths.reserveCapacity(line.count)
        for index in line.start..<(line.start + line.count) {
            let width = prefixWidths.last.map { $0 + gap + cellWidths[index] } ?? cellWidths[index]
            prefixWidths.append(width)
        }
        var count = line.count
        while count > 0, prefixWidths[count - 1] + gap + indicatorWidth > limit {
            count -= 1
        }
        let width = count > 0 ? prefixWidths[count - 1] + gap + indicatorWidth : indicatorWidth
        return FlowLine(start: line.start, count: count, width: width)
    }

    /// CSS Flexbox §9.4 step 8: a line's cross size is its largest outer cross size (Rule: row height is the tallest cell).
    static func lineCrossSize(cellHeights: ArraySlice<Double>) -> Double {
        cellHeights.max() ?? 0
    }

    /// CSS Box Alignment, justify-content for one flex line: space before the first cell and extra space between cells.
    static func distributeFreeSpace(
        _ freeSpace: Double, cellCount: Int, alignment: FlowAlignment
    ) -> (leading: Double, between: Double) {
        // CSS Box Alignment #overflow-values `safe` and #distribution-values fallbacks: an overflowing line starts at the leading edge.
        guard freeSpace > 0, cellCount > 0 else { return (0, 0) }
        let cells = Double(cellCount)
        switch alignment {
        case .leading:
            return (0, 0)
        case .center:
            return (freeSpace / 2, 0)
        case .trailing:
            return (freeSpace, 0)
        case .spaceBetween:
            // CSS Box Alignment #distribution-values: space-between falls back to flex-start for a single cell.
            return cellCount > 1 ? (0, freeSpace / (cells - 1)) : (0, 0)
        case .spaceAround:
            // CSS Box Alignment #distribution-values: with one cell, space-around and space-evenly give their `center` fallback.
            return (freeSpace / (2 * cells), freeSpace / cells)
        case .spaceEvenly:
            return (freeSpace / (cells + 1), freeSpace / (cells + 1))
        }
    }

    /// CSS Flexbox §9.6 step 14 (align-items flex-start, center, flex-end): a cell's top within its line.
    static func alignInLine(
        cellHeight: Double, lineTop: Double, lineHeight: Double, alignment: FlowRowAlignment
    ) -> Double {
        switch alignment {
        case .top:
            return lineTop
        case .center:
            return lineTop + (lineHeight - cellHeight) / 2
        case .bottom:
            return lineTop + lineHeight - cellHeight
        }
    }

    /// Rule: the mirror image of the ltr layout about the container's vertical centre line.
    static func mirroredForRTL(_ result: FlowOutput, containerWidth: Double) -> FlowOutput {
        result.mappingRects { mirrored($0, containerWidth: containerWidth) }
    }

    /// Rule: one rectangle's mirror image.
    static func mirrored(_ rect: Rect, containerWidth: Double) -> Rect {
        Rect(x: containerWidth - (rect.x + rect.width), y: rect.y, width: rect.width, height: rect.height)
    }

    /// Rule for `pixelScale`: round every absolute edge to the device-pixel grid and derive sizes from rounded edges.
    static func snappedToDevicePixels(_ result: FlowOutput, scale: Double) -> FlowOutput {
        var result = result.mappingRects { snapped($0, scale: scale) }
        for k in result.rows.indices {
            let top = snap(result.rows[k].y, scale: scale)
            let bottom = snap(result.rows[k].y + result.rows[k].height, scale: scale)
            result.rows[k].y = top
            result.rows[k].height = bottom - top
            result.rows[k].width = snap(result.rows[k].width, scale: scale)
        }
        result.size = Size(
            width: snap(result.size.width, scale: scale), height: snap(result.size.height, scale: scale)
        )
        return result
    }

    /// Rule for `pixelScale`: one rectangle, edges rounded, width and height derived.
    static func snapped(_ rect: Rect, scale: Double) -> Rect {
        let left = snap(rect.x, scale: scale)
        let top = snap(rect.y, scale: scale)
        let right = snap(rect.x + rect.width, scale: scale)
        let bottom = snap(rect.y + rect.height, scale: scale)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Rule for `pixelScale`: an edge to the nearest device pixel, halves away from zero, -0 made 0.
    static func snap(_ edge: Double, scale: Double) -> Double {
        (edge * scale).rounded() / scale + 0
    }
}
