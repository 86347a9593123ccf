import TrellisCore
import TrellisJSON

/// The optional `search` member of both outline endpoints: the query and how to compare it with each node's label.
struct OutlineSearchInput {
    /// The folded query, ready to match labels.
    let search: OutlineSearch
    let labelKey: String

    /// How label scalars fold, shared by every request (each block of it is made once, on first use).
    static let folding = OutlineFolding()

    /// Reads `search`; nil when it is absent or null, or after recording a problem.
    static func read(_ body: JSONValue, _ problems: inout Problems) -> OutlineSearchInput? {
        guard let value = body.optional("search"), value.expectObject(&problems) else { return nil }
        return OutlineSearchInput(value, &problems)
    }

    private init?(_ value: JSONValue, _ problems: inout Problems) {
        let before = problems.count
        var query: String?
        if let member = value.required("query", &problems), let text = member.text(&problems) {
            // Rule: a query has 1 to 256 Unicode scalars.
            let count = text.unicodeScalars.count
            if count == 0 || count > OutlineLimits.maxQueryScalars {
                problems.add(at: member, "must have 1 to \(OutlineLimits.maxQueryScalars) Unicode scalars")
            } else {
                query = text
            }
        }
        var labelKey = "label"
        if let member = value.optional("labelKey"), let key = member.text(&problems) {
            // Rule: member names are short, so no pointer or answer repeats a long one.
            if key.utf8.count > OutlineLimits.maxKeyBytes {
                problems.add(at: member, "must be at most \(OutlineLimits.maxKeyBytes) bytes of UTF-8")
            } else {
                labelKey = key
            }
        }
        let mode = value.optional("mode").map { $0.oneOf(OutlineSearchMode.self, &problems) } ?? .substring
        let caseSensitive = value.optional("caseSensitive").map { $0.boolean(&problems) ?? false } ?? false
        let diacriticSensitive = value.optional("diacriticSensitive").map { $0.boolean(&problems) ?? false } ?? false
        guard let query, let mode, problems.count == before else { return nil }
        guard let search = OutlineSearch(
            folding: Self.folding, query: query, mode: mode, caseSensitive: caseSensitive, diacriticSensitive: diacriticSensitive)
        else {
            // Rule: a query (in `words` mode: every term) that folds to nothing → 422.
            let what = mode == .words ? "has no term left after folding" : "folds to nothing"
            problems.add(
                at: value, member: "query", "\(what) (combining marks are removed unless diacriticSensitive is true)")
            return nil
        }
        self.search = search
        self.labelKey = labelKey
    }

    /// Rule: a node whose label is absent, null or not a string never matches; a label longer than
    /// OutlineLimits.maxLabelBytes is a problem at its pointer. O(total label length); the run keeps `meter`
    /// (counting on it while the ranges are written) until the endpoint takes it back.
    func run(in input: OutlineTreeInput, _ problems: inout Problems, _ meter: WorkMeter) -> OutlineSearchRun {
        var run = OutlineSearchRun(search: search, input: input, labelKey: Array(labelKey.utf8), meter: meter)
        run.matchEveryNode(&problems)
        return run
    }
}

/// A search after its pass over the labels: which nodes match, and each matching node's ranges on demand
/// (found again when written, so no request keeps the ranges of every node).
struct OutlineSearchRun {
    private var search: OutlineSearch
    let input: OutlineTreeInput
    let labelKey: [UInt8]
    /// The request's meter while the search runs and its ranges are written.
    var meter: WorkMeter

    init(search: OutlineSearch, input: OutlineTreeInput, labelKey: [UInt8], meter: WorkMeter) {
        self.search = search
        self.input = input
        self.labelKey = labelKey
        self.meter = meter
    }

    var matches: OutlineSearchMatches { search.matches }

    /// The node's label member when it is a string.
    private func label(of node: Int) -> JSONValue? {
        labelKey.withUnsafeBytes { key in
            let value = input.document.value(at: Int(input.positions[node])).members(key, key).0
            return value?.kind == .string ? value : nil
        }
    }

    fileprivate mutating func matchEveryNode(_ problems: inout Problems) {
        let document = input.document
        let positions = input.positions
        labelKey.withUnsafeBytes { key in
            for position in positions {
                let label = document.value(at: Int(position)).members(key, key).0
                if let label, label.kind == .string {
                    label.withStringBytes { bytes in
                        // Rule "label limit": a searched label has at most 4,096 bytes, like an id, so that
                        // searching one costs a bounded amount.
                        if bytes.count > OutlineLimits.maxLabelBytes {
                            problems.add(at: label, "must be at most \(OutlineLimits.maxLabelBytes) bytes of UTF-8 to be searched")
                            search.appendNode(label: nil, meter: &meter)
                        } else {
                            search.appendNode(label: bytes, meter: &meter)
                        }
                    }
                } else {
                    search.appendNode(label: nil, meter: &meter)
                }
                if meter.isStopped { return }
            }
        }
    }

    /// `[[start, end], …]`: a matching node's ranges in UTF-16 code units of its label.
    mutating func writeRanges(of node: Int, to json: inout JSONWriter) {
        json.beginArray()
        if let label = label(of: node) {
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
