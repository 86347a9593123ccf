import TrellisCore

@available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *)
extension OutlineRowsLayout {
    /// The rows of a search with wrapped labels: every label matched (each read once through `labels`, its bytes:
    /// `OutlineSearch.matchNodes`), the rows of the matches and their ancestors, opened (`input.rows` shows them
    /// whatever it says), laid out as `compute(_:label:cache:meter:)` lays them out (each row's label read through
    /// `label`), and the ranges of each matching row in the window (`OutlineSearch.ranges(ofRows:labels:meter:)`).
    /// Steps as those three count them on `meter`; nil when the meter stopped.
    public static func compute(
        _ input: OutlineRowsLayoutInput, search: OutlineSearch, labels: (Int) -> UnsafeRawBufferPointer?, label: (Int) -> String?,
        cache: ShapingCache? = nil, meter: inout WorkMeter
    ) -> Result<OutlineRowsLayoutOutput, OutlineRowsLayoutRefusal>? {
        var search = search
        var noRanges: OutlineMatchRanges?
        switch search.matchNodes(count: input.rows.tree.count, labels: labels, keeping: &noRanges, meter: &meter) {
        case .stopped?: return nil
        case let refusal?: return .failure(.search(refusal))
        case nil: break
        }
        var shown = input
        shown.rows.shown = .matches(search.matches)
        switch compute(shown, label: label, cache: cache, meter: &meter) {
        case nil: return nil
        case .failure(let refusal)?: return .failure(.label(refusal))
        case .success(var made)?:
            guard let ranges = search.ranges(ofRows: made.rows.rows, labels: labels, meter: &meter) else { return nil }
            made.rows = OutlineRowsOutput(
                rows: made.rows.rows, totalRows: made.rows.totalRows, selectedRow: made.rows.selectedRow, matches: search.matches,
                ranges: ranges)
            return .success(made)
        }
    }
}
