/// The seed-like picker tree, in both forms:
/// root [docs [readme, guides [intro]], src [main]] · other
enum OutlineExamples {
    static let nested = """
        [{"id":"root","title":"Root","children":[{"id":"docs","title":"Docs","children":[{"id":"readme","title":"README"},\
        {"id":"guides","children":[{"id":"intro"}]}]},{"id":"src","children":[{"id":"main","children":null}]}]},{"id":"other"}]
        """
    /// Parents after their children, sibling order kept.
    static let flat = """
        [{"id":"intro","parent":"guides"},{"id":"readme","parent":"docs"},{"id":"main","parent":"src"},\
        {"id":"guides","parent":"docs"},{"id":"root","parent":null},{"id":"docs","parent":"root"},\
        {"id":"src","parent":"root"},{"id":"other"}]
        """

    /// Request bodies for both forms, with `extra` members (e.g. `"selection":"readme"`) appended.
    static func bodies(_ extra: String = "") -> [String] {
        let tail = extra.isEmpty ? "" : "," + extra
        return [#"{"nodes":\#(nested)\#(tail)}"#, #"{"parentKey":"parent","nodes":\#(flat)\#(tail)}"#]
    }
}
