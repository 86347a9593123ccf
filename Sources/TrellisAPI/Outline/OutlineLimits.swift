/// Issue 3, scale: the documented limits of both outline endpoints (openapi.yaml and the README quote them).
public enum OutlineLimits {
    /// Nodes per request, in either form.
    public static let maxNodes = 2_000_000
    /// Ids in `selections`.
    public static let maxSelections = 1_000
    /// Ids in all `paths` together: they grow as selections × depth.
    public static let maxPathIds = 5_000_000
    /// Ids in `expanded`.
    public static let maxExpanded = maxNodes
    /// Issue 3, scale: the 400 for nested trees deeper than the JSON decoder allows suggests the flat form.
    public static let depthAdvice = """
        Nested outline trees can be at most 511 levels deep (each level nests two JSON levels); send deeper \
        trees in the flat form: give "parentKey" and list every node in one "nodes" array with its parent's id (any depth).
        """
}
