import TrellisCore
import TrellisJSON

/// The optional `search` member of both outline endpoints: the query and how to compare it with each node's label.
struct OutlineSearchRequest {
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

    /// Rule: a node's label is its `labelKey` member when that is a string (absent, null or another kind: no
    /// label, and it never matches); its bytes stay in the body, valid while the request is computed.
    @inline(__always)
    func label(of node: Int, in input: OutlineTreeInput) -> UnsafeRawBufferPointer? {
        labelValue(of: node, in: input)?.stringBytes
    }

    /// The node's `labelKey` member.
    @inline(__always)
    func labelValue(of node: Int, in input: OutlineTreeInput) -> JSONValue? {
        input.document.value(at: Int(input.positions[node])).fields(labelKey)[0]
    }

    /// Records a refusal of the search as the body's problems: each label too long at its pointer (nothing once the
    /// deadline passed: the pipeline answers 503).
    func record(_ refusal: OutlineSearchRefusal, in input: OutlineTreeInput, _ problems: inout Problems) {
        guard case .labelsTooLong(let nodes) = refusal else { return problems.add(refusal) }
        for node in nodes {
            if let label = labelValue(of: node, in: input) { problems.add(refusal, at: label) }
        }
    }
}
