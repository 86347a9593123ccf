import TrellisCore

/// The documented limits of both outline endpoints (openapi.yaml and docs/limits.md quote them).
enum OutlineLimits {
    /// Nodes per request, in either form.
    static let maxNodes = 2_000_000
    /// Ids in `selections`.
    static let maxSelections = 1_000
    /// Ids in all `paths` together: they grow as selections × depth.
    static let maxPathIds = 5_000_000
    /// UTF-8 bytes of `idKey`, `childrenKey` and `parentKey`.
    static let maxKeyBytes = 256
    /// Unicode scalars in a search's `query`.
    static let maxQueryScalars = 256
    /// UTF-8 bytes of a label that is searched (as of a string id): the core's limit.
    static let maxLabelBytes = OutlineSearch.maxLabelBytes
    /// Ids in `expanded`.
    static let maxExpanded = maxNodes
    /// How to ask for a smaller answer when it would pass its size limit.
    static let rowsSizeAdvice = "ask for a window of rows with offset and limit, or use shorter ids."
    static let expansionSizeAdvice = "ask for fewer selections at a time, search with a longer query, or use shorter ids."
    /// The 400 for nested trees deeper than the JSON decoder allows suggests the flat form.
    static let depthAdvice = """
        Nested outline trees can be at most 511 levels deep (each level nests two JSON levels); send deeper \
        trees in the flat form: give "parentKey" and list every node in one "nodes" array with its parent's id (any depth).
        """
}
