import TrellisJSON
import HTTPTypes

/// The operations endpoints' bodies: index, health, readiness, the OpenAPI document, the playground,
/// the JavaScript client.
enum Operations {
    static let healthy: [UInt8] = Array(#"{"status":"ok"}"#.utf8)
    static let ready: [UInt8] = Array(#"{"status":"ready"}"#.utf8)
    static let openAPI = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
    /// The playground page (HTML, CSS and JavaScript in one file), embedded at build time.
    static let playground: [UInt8] = PackageResources.playground_html
    /// The JavaScript client module (clients/js/trellis.mjs), embedded at build time.
    static let javaScript: [UInt8] = PackageResources.trellis_mjs
    /// The page loads nothing but itself and the client module from its own origin; it may call any API base URL the user types.
    static let playgroundPolicy = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; "
        + "img-src data:; connect-src *; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func index(endpoints: [String], metrics: Bool = true) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.key("service"); json.string(TrellisService.name)
        json.key("version"); json.string(TrellisService.version)
        json.key("endpoints")
        json.beginArray()
        for (method, path) in [
            ("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/metrics"), ("GET", "/openapi.yaml"), ("GET", "/playground"),
            ("GET", "/clients/trellis.mjs"), ("GET", "/v1/fonts"),
        ]
            + endpoints.map({ ("POST", $0) }) where metrics || path != "/metrics" {
            json.beginObject()
            json.key("method"); json.string(method)
            json.key("path"); json.string(path)
            json.endObject()
        }
        json.endArray()
        json.key("openapi"); json.string("/openapi.yaml")
        json.key("playground"); json.string("/playground")
        json.endObject()
        return json.bytes
    }

    static func playgroundPage() -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                "Content-Type": "text/html; charset=utf-8",
                "Content-Security-Policy": playgroundPolicy,
                "X-Content-Type-Options": "nosniff",
            ],
            body: playground)
    }

    /// The client module, as browsers load ES modules: JavaScript, never sniffed as anything else.
    static func javaScriptClient() -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: ["Content-Type": "text/javascript; charset=utf-8", "X-Content-Type-Options": "nosniff"],
            body: javaScript)
    }

    static func readiness(draining: Bool, fontsLoaded: Bool = true) -> HTTPResponse {
        guard !draining else {
            return ProblemDetails(status: 503, detail: "The service is shutting down.").response()
        }
        guard fontsLoaded else {
            return ProblemDetails(status: 503, detail: "The fonts are still loading.").response()
        }
        return json(ready)
    }

    static func json(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
    }

    static func text(_ body: String, type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": type], body: Array(body.utf8))
    }
}
