/// The documented limits of `POST /v1/sections/toggle` (openapi.yaml maxItems); 422 past them.
enum SectionsLimits {
    static let maxSections = 10_000
    static let maxExpanded = 10_000
    static let maxActions = 10_000
}
