import TrellisCore

/// Deliberately naive models of the flow layout's rules, written independently of FlowLayout.
enum FlowReferenceModel {
    struct Layout: Equatable {
        var rows: [[Int]]
        var hiddenCount: Int
        /// Leading, top-aligned, ltr rectangles of visible items by index.
        var rects: [Int: Rect]
        var indicator: FlowOverflowIndicator?
    }

    static func cellWidth(_ request: FlowInput, _ index: Int) -> Double {
        request.items[index].width + 2 * request.horizontalSpacing
    }

    static func rowWidth(_ request: FlowInput, _ cells: [Double]) -> Double {
        var total = 0.0
        for (k, cell) in cells.enumerated() {
            total = k == 0 ? cell : total + request.columnGap + cell
        }
        return total
    }

    static func fits(_ request: FlowInput, _ width: Double) -> Bool {
        width <= request.containerWidth + 1e-9 * max(1, request.containerWidth)
    }

    /// Rule "Greedy wrapping" and "breakBefore", by re-measuring each candidate row from scratch.
    static func greedyRows(_ request: FlowInput) -> [[Int]] {
        var rows: [[Int]] = []
        for index in request.items.indices {
            if var last = rows.last, !request.items[index].breakBefore,
               fits(request, rowWidth(request, (last + [index]).map { cellWidth(request, $0) })) {
                last.append(index)
                rows[rows.count - 1] = last
            } else {
                rows.append([index])
            }
        }
        return rows
    }

    /// Rules "maxRows" and "overflowIndicator", leading/top/ltr placement.
    static func layout(_ request: FlowInput) -> Layout {
        let all = greedyRows(request)
        var rows = Array(all.prefix(request.maxRows ?? all.count))
        var visible = rows.reduce(0) { $0 + $1.count }
        var chip: Size?
        if let indicator = request.overflowIndicator, visible < request.items.count, !rows.isEmpty {
            let chipCell = indicator.width + 2 * request.horizontalSpacing
            while let last = rows.last, !last.isEmpty,
                  !fits(request, rowWidth(request, last.map { cellWidth(request, $0) } + [chipCell])) {
                rows[rows.count - 1].removeLast()
            }
            visible = rows.reduce(0) { $0 + $1.count }
            chip = indicator
        }
        var rects: [Int: Rect] = [:]
        var indicatorResult: FlowOverflowIndicator?
        var top = 0.0
        for (r, row) in rows.enumerated() {
            let isLast = r == rows.count - 1
            var heights = row.map { request.items[$0].height + 2 * request.verticalSpacing }
            if isLast, let chip {
                heights.append(chip.height + 2 * request.verticalSpacing)
            }
            var x = 0.0
            for index in row {
                rects[index] = Rect(
                    x: x + request.horizontalSpacing, y: top + request.verticalSpacing,
                    width: request.items[index].width, height: request.items[index].height
                )
                x += cellWidth(request, index) + request.columnGap
            }
            if isLast, let chip {
                indicatorResult = FlowOverflowIndicator(
                    rect: Rect(
                        x: x + request.horizontalSpacing, y: top + request.verticalSpacing,
                        width: chip.width, height: chip.height
                    ),
                    count: request.items.count - visible
                )
            }
            top += (heights.max() ?? 0) + request.rowGap
        }
        return Layout(rows: rows, hiddenCount: request.items.count - visible, rects: rects, indicator: indicatorResult)
    }

    /// Every partition of the items into rows that honours forced breaks, as row lengths.
    static func partitions(_ request: FlowInput) -> [[Int]] {
        let n = request.items.count
        guard n > 0 else { return [[]] }
        var result: [[Int]] = []
        for mask in 0..<(1 << (n - 1)) {
            var lengths: [Int] = []
            var length = 1
            var valid = true
            for index in 1..<n {
                let breaks = mask & (1 << (index - 1)) != 0
                if request.items[index].breakBefore, !breaks {
                    valid = false
                    break
                }
                if breaks {
                    lengths.append(length)
                    length = 1
                } else {
                    length += 1
                }
            }
            if valid {
                lengths.append(length)
                result.append(lengths)
            }
        }
        return result
    }

    static func rowWidths(_ request: FlowInput, lengths: [Int]) -> [Double] {
        var start = 0
        return lengths.map { length in
            defer { start += length }
            return rowWidth(request, (start..<(start + length)).map { cellWidth(request, $0) })
        }
    }
}
