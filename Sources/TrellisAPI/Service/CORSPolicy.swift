import TrellisHTTP

/// Which browser origins may call the service (`--cors-origins`).
public enum CORSPolicy: Sendable, Equatable {
    case anyOrigin
    case origins(Set<String>)
    case none

    /// Parses "*" or a comma-separated list of origins ("" allows none).
    public init(_ text: String) {
        let items = text.split(separator: ",").map { String($0.filter { $0 != " " && $0 != "\t" }) }.filter { !$0.isEmpty }
        if items.contains("*") {
            self = .anyOrigin
        } else if items.isEmpty {
            self = .none
        } else {
            self = .origins(Set(items))
        }
    }

    static let allowedMethods = "GET, HEAD, POST, PUT, OPTIONS"
    static let allowedHeaders = "Content-Type, X-Request-Id"
    static let maxAge = "600"

    /// Adds the CORS headers for a request from `origin` (nothing for a disallowed one).
    func decorate(_ headers: inout TrellisHeaders, origin: String?, preflight: Bool) {
        if case .origins = self { headers.add("Vary", "Origin") }
        switch (self, origin) {
        case (.anyOrigin, _):
            // With or without Origin: one answer for every origin, so a cache may hand any origin the one it kept.
            headers.add("Access-Control-Allow-Origin", "*")
        case (.origins(let allowed), let origin?) where allowed.contains(origin):
            headers.add("Access-Control-Allow-Origin", origin)
        default:
            return
        }
        if preflight {
            headers.add("Access-Control-Allow-Methods", Self.allowedMethods)
            headers.add("Access-Control-Allow-Headers", Self.allowedHeaders)
            headers.add("Access-Control-Max-Age", Self.maxAge)
        } else {
            headers.add("Access-Control-Expose-Headers", "X-Request-Id")
        }
    }
}
