import TrellisCore
import TrellisJSON

/// The optional `search` member of both outline endpoints: the query and how to compare it with each node's label.
struct OutlineSearchInput {
    /// The folded query, ready to match labels.
    let search: OutlineSearch
    /// The member each node's label is read from.
    let labelKey: JSONKeys

    /// The members of `search`.
    enum Member: Int, JSONMember {
        case query, labelKey, mode, caseSensitive, diacriticSensitive
        static let keys = JSONKeys(Member.self)
    }

    /// Reads `search` (present and not null), folding with the service's shared `folding`; nil after recording a problem.
    init?(reading value: JSONValue, _ folding: OutlineFolding, _ problems: inout Problems) {
        guard value.expectObject(&problems) else { return nil }
        let before = problems.count
        let members = value.fields(Member.self)
        var query: String?
        if let member = members.required(Member.query, &problems), let text = member.text(&problems) {
            // Rule: a query has 1 to 256 Unicode scalars.
            let count = text.unicodeScalars.count
            if count == 0 || count > OutlineLimits.maxQueryScalars {
                problems.add(at: member, "must have 1 to \(OutlineLimits.maxQueryScalars) Unicode scalars")
            } else {
                query = text
            }
        }
        let labelKey = OutlineTreeInput.key(members.optional(Member.labelKey), &problems) ?? "label"
        let mode = members.optional(Member.mode).map { $0.oneOf(OutlineSearchMode.self, &problems) } ?? .substring
        let caseSensitive = members.optional(Member.caseSensitive).map { $0.boolean(&problems) ?? false } ?? false
        let diacriticSensitive = members.optional(Member.diacriticSensitive).map { $0.boolean(&problems) ?? false } ?? false
        guard let query, let mode, problems.count == before else { return nil }
        guard let search = OutlineSearch(
            folding: folding, query: query, mode: mode, caseSensitive: caseSensitive, diacriticSensitive: diacriticSensitive)
        else {
            // Rule: a query (in `words` mode: every term) that folds to nothing → 422.
            let what = mode == .words ? "has no term left after folding" : "folds to nothing"
            problems.add(
                at: value, member: "query", "\(what) (combining marks are removed unless diacriticSensitive is true)")
            return nil
        }
        self.search = search
        self.labelKey = JSONKeys([labelKey])
    }

    /// Rule: a node whose label is absent, null or not a string never matches; a label longer than
    /// OutlineLimits.maxLabelBytes is a problem at its pointer. O(total label length); the run keeps `meter`
    /// (counting on it while the ranges are written) until the endpoint takes it back. `everyRange`: the answer
    /// lists the ranges of every match, so they are kept as the labels are matched (each label scanned once where
    /// that pays) instead of found again when written.
    func run(
        in input: OutlineTreeInput, everyRange: Bool = false, _ problems: inout Problems, _ meter: WorkMeter
    ) -> OutlineSearchRun {
        var run = OutlineSearchRun(
            search: search, input: input, labelKey: labelKey, kept: everyRange ? OutlineKeptRanges() : nil, meter: meter)
        run.matchEveryNode(&problems)
        return run
    }
}

/// A search after its pass over the labels: which nodes match, and each matching node's ranges on demand
/// (found again when written, so no request keeps the ranges of every node).
struct OutlineSearchRun {
    private var search: OutlineSearch
    let input: OutlineTreeInput
    let labelKey: JSONKeys
    /// The ranges of every match, when they were kept while matching.
    private var kept: OutlineKeptRanges?
    /// The request's meter while the search runs and its ranges are written.
    var meter: WorkMeter

    init(search: OutlineSearch, input: OutlineTreeInput, labelKey: JSONKeys, kept: OutlineKeptRanges?, meter: WorkMeter) {
        self.search = search
        self.input = input
        self.labelKey = labelKey
        self.kept = kept
        self.meter = meter
    }

    var matches: OutlineSearchMatches { search.matches }

    /// The node's label member when it is a string.
    private func label(of node: Int) -> JSONValue? {
        let value = input.document.value(at: Int(input.positions[node])).fields(labelKey)[0]
        return value?.kind == .string ? value : nil
    }

    fileprivate mutating func matchEveryNode(_ problems: inout Problems) {
        let document = input.document
        let positions = input.positions
        // Kept in a local while the labels are matched, so that the closure that appends to it leaves self alone.
        var ranges = kept
        kept = nil
        defer { kept = ranges }
        ranges?.reserve(nodes: positions.count)
        do {
            for position in positions {
                let label = document.value(at: Int(position)).fields(labelKey)[0]
                if let label, label.kind == .string {
                    label.withStringBytes { bytes in
                        // Rule: a searched label has at most 4,096 bytes, like an id, so that
                        // searching one costs a bounded amount.
                        if bytes.count > OutlineLimits.maxLabelBytes {
                            problems.add(at: label, "must be at most \(OutlineLimits.maxLabelBytes) bytes of UTF-8 to be searched")
                            appendNode(label: nil, &ranges)
                        } else {
                            appendNode(label: bytes, &ranges)
                        }
                    }
                } else {
                    appendNode(label: nil, &ranges)
                }
                if meter.isStopped { return }
            }
        }
    }

    /// The next node to the search, and its ranges to those kept.
    private mutating func appendNode(label: UnsafeRawBufferPointer?, _ ranges: inout OutlineKeptRanges?) {
        guard ranges != nil else { return search.appendNode(label: label, meter: &meter) }
        search.appendNode(label: label, meter: &meter) { start, end in ranges?.append(start, end) }
        ranges?.endNode()
    }

    /// `[[start, end], …]`: a matching node's ranges in UTF-16 code units of its label.
    mutating func writeRanges(of node: Int, to json: inout JSONWriter) {
        json.beginArray()
        if let kept {
            kept.forEach(of: node) { start, end in
                json.beginArray()
                json.int(start)
                json.int(end)
                json.endArray()
            }
        } else if let label = label(of: node) {
            label.withStringBytes { bytes in
                search.ranges(in: bytes, meter: &meter) { start, end in
                    json.beginArray()
                    json.int(start)
                    json.int(end)
                    json.endArray()
                }
            }
        }
        json.endArray()
    }
}

/// The ranges of every node in node order, kept while the labels are matched: UTF-16 offsets as two bytes each
/// (a searched label has at most OutlineLimits.maxLabelBytes bytes, so at most as many UTF-16 code units), and
/// where each node's ranges begin. At most 4 bytes per label byte (a range covers one code unit or more) and 4 per node.
struct OutlineKeptRanges {
    private var bounds: [UInt16] = []
    private var firsts: [UInt32] = [0]

    mutating func reserve(nodes: Int) { firsts.reserveCapacity(nodes + 1) }

    mutating func append(_ start: Int, _ end: Int) {
        bounds.append(UInt16(truncatingIfNeeded: start))
        bounds.append(UInt16(truncatingIfNeeded: end))
    }

    /// The ranges appended since the last call are the next node's.
    mutating func endNode() { firsts.append(UInt32(truncatingIfNeeded: bounds.count)) }

    /// Calls `body` with each range of `node`, in order.
    func forEach(of node: Int, _ body: (Int, Int) -> Void) {
        guard node + 1 < firsts.count else { return }
        var i = Int(firsts[node])
        let end = Int(firsts[node + 1])
        while i < end {
            body(Int(bounds[i]), Int(bounds[i + 1]))
            i += 2
        }
    }
}
