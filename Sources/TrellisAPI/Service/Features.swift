/// The registry of feature endpoints: the router, the index at `/`, the metrics labels and the fuzz
/// target all take their paths from here. A new feature is one line.
public enum Features {
    public static let endpoints: [JSONEndpoint] = [
        JSONEndpoint(OutlineExpansionEndpoint.self),
        JSONEndpoint(OutlineRowsEndpoint.self),
        JSONEndpoint(FlowLayoutEndpoint.self),
        JSONEndpoint(SectionsToggleEndpoint.self),
        JSONEndpoint(DrawerStateEndpoint.self),
        JSONEndpoint(TextMeasureEndpoint.self),
        JSONEndpoint(TextLayoutEndpoint.self),
        JSONEndpoint(ListLayoutEndpoint.self),
    ]

    /// The batch's path: its entries are requests to the feature paths.
    public static var batchPath: String { BatchEndpoint.path }

    /// The feature paths, in the order the index lists them.
    public static var paths: [String] { endpoints.map(\.path) }

    /// A path's short name, as the fuzz corpus folders use it: "/v1/flow/layout" → "flow-layout".
    public static func shortName(of path: String) -> String {
        path.split(separator: "/").dropFirst().joined(separator: "-")
    }
}
