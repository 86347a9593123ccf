import TrellisCore

/// The rows' paragraphs laid out at every width, kept only for rows with a line somewhere (a row whose
/// paragraphs are all empty has no line at any width): per such row and width its paragraphs' heights in
/// LayoutUnits (1/64 px) and their lines (the top bit: one of them is truncated); 8 bytes per row and width.
/// A row's height at a width is made from these and its chrome when it is read.
struct ListRowsText: Sendable {
    static let truncatedBit: UInt32 = 1 << 31

    let rows: [ListLayoutRow]
    let chromes: [ListRowChrome]
    /// The paragraph gap as a LayoutUnit.
    let paragraphGap: Double
    let widths: Int
    /// The first row of the part of the list this holds.
    let first: Int
    /// Per row of the part: its index among the rows kept, or -1.
    var slots: [Int32]
    var heights: [Int32] = []
    var lines: [UInt32] = []
    /// The first paragraph of those rows.
    let firstParagraph: Int
    /// When the shaping is kept: per paragraph of those rows, from `firstParagraph`, its shaping or nil.
    var shaped: [ShapedParagraph?]?

    /// Room for the rows in `range` (the rows a lane lays out): `reserving`, at most that many row-widths are ever kept;
    /// `keeping`, room for the paragraphs' shaping.
    init(_ input: ListLayoutInput, rows range: Range<Int>, reserving: Int, keeping: Bool = false) {
        let firstParagraph = range.lowerBound > 0 ? Int(input.rows[range.lowerBound - 1].paragraphEnd) : 0
        let endParagraph = range.isEmpty ? firstParagraph : Int(input.rows[range.upperBound - 1].paragraphEnd)
        self.firstParagraph = firstParagraph
        if keeping { shaped = [ShapedParagraph?](repeating: nil, count: endParagraph - firstParagraph) }
        rows = input.rows
        chromes = input.chromes
        paragraphGap = ListLength.layoutUnit(input.paragraphGap)
        widths = input.widths.count
        first = range.lowerBound
        slots = [Int32](repeating: -1, count: range.count)
        // At most the rows with a paragraph keep their text: reserved once (appending would double past it).
        var withText = 0
        var start: Int32 = range.lowerBound > 0 ? input.rows[range.lowerBound - 1].paragraphEnd : 0
        for row in input.rows[range] {
            if row.paragraphEnd > start { withText += 1 }
            start = row.paragraphEnd
        }
        let reserved = min(withText * widths, reserving / max(1, widths) * widths)
        heights.reserveCapacity(reserved)
        lines.reserveCapacity(reserved)
    }

    /// Takes the values another part kept for its rows (none of which this one kept), and its paragraphs' shaping.
    mutating func adopt(_ other: ListRowsText) {
        if shaped != nil, let theirs = other.shaped {
            for (index, paragraph) in theirs.enumerated() { shaped?[other.firstParagraph + index - firstParagraph] = paragraph }
        }
        heights.reserveCapacity(heights.count + other.heights.count)
        lines.reserveCapacity(lines.count + other.lines.count)
        for (index, slot) in other.slots.enumerated() where slot >= 0 {
            let from = Int(slot) * widths
            slots[other.first + index - first] = Int32(heights.count / widths)
            heights.append(contentsOf: other.heights[from..<from + widths])
            lines.append(contentsOf: other.lines[from..<from + widths])
        }
    }

    /// Keeps paragraph `paragraph`'s shaping, when the shaping is kept.
    mutating func keep(_ paragraph: Int, _ shaping: ShapedParagraph) {
        shaped?[paragraph - firstParagraph] = shaping
    }

    /// Where row `row`'s values for every width start, made on first use; nil when that would keep more than
    /// `limit` row-widths.
    mutating func base(_ row: Int, within limit: Int) -> Int? {
        if slots[row - first] < 0 {
            guard heights.count + widths <= limit else { return nil }
            slots[row - first] = Int32(heights.count / widths)
            // One value at a time: appending a repeated element went through its generic sequence path, a few times
            // the cost of the values.
            for _ in 0..<widths {
                heights.append(0)
                lines.append(0)
            }
        }
        return Int(slots[row - first]) * widths
    }

    /// Rule: a row's text is its paragraphs one below the other, with the paragraph gap between each two (empty
    /// ones too: a flex column's row-gap); its height adds its chrome (`ListStacking.rowHeight`).
    func height(_ row: Int, _ width: Int) -> Double {
        let slot = Int(slots[row - first])
        var text = slot < 0 ? 0 : Double(heights[slot * widths + width]) / 64
        let paragraphs = Int(rows[row].paragraphEnd) - (row > 0 ? Int(rows[row - 1].paragraphEnd) : 0)
        if paragraphs > 1 { text += paragraphGap * Double(paragraphs - 1) }
        return ListStacking.rowHeight(text: text, chromes[Int(rows[row].chrome)])
    }

    func lines(_ row: Int, _ width: Int) -> UInt32 {
        let slot = Int(slots[row - first])
        return slot < 0 ? 0 : lines[slot * widths + width]
    }
}
