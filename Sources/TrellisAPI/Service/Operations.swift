import TrellisJSON
import TrellisHTTP

/// The operations endpoints' bodies: index, health, readiness, the OpenAPI document, the playground,
/// the JavaScript client.
enum Operations {
    static let healthy: [UInt8] = Array(#"{"status":"ok"}"#.utf8)
    static let ready: [UInt8] = Array(#"{"status":"ready"}"#.utf8)
    /// The embedded files, each with its ETag computed once from its bytes.
    static let openAPI = FixedAnswer(PackageResources.openapi_yaml, type: "application/yaml")
    /// The playground page (HTML, CSS and JavaScript in one file), embedded at build time.
    static let playground: [UInt8] = PackageResources.playground_html
    static let playgroundAnswer = FixedAnswer(
        playground, type: "text/html; charset=utf-8", headers: [("Content-Security-Policy", playgroundPolicy)])
    /// The JavaScript client module (clients/js/trellis.mjs), embedded at build time; as browsers load
    /// ES modules: JavaScript (nosniff, like every answer, keeps it from being taken for anything else).
    static let javaScript: [UInt8] = PackageResources.trellis_mjs
    static let javaScriptAnswer = FixedAnswer(javaScript, type: "text/javascript; charset=utf-8")
    /// The page runs only its own inline script (by its hash, CSP3 §8.4) and the client module from
    /// its own origin, and calls only its own origin: a link with ?api= elsewhere can't send the
    /// page's requests to another host. (A copy of the page served elsewhere has no such policy.)
    static let playgroundPolicy = "default-src 'none'; script-src 'self' \(inlineScriptHashes(playground)); "
        + "style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        + "frame-ancestors 'none'"

    /// The CSP hash sources ('sha256-...') of the page's inline `<script>` elements' text.
    static func inlineScriptHashes(_ page: [UInt8]) -> String {
        let open = Array("<script>".utf8), close = Array("</script>".utf8)
        var sources: [String] = []
        var i = 0
        while let start = find(open, in: page, from: i), let end = find(close, in: page, from: start + open.count) {
            sources.append("'sha256-" + ContentDigest.base64(ContentDigest.sha256(page[(start + open.count)..<end]) ?? []) + "'")
            i = end + close.count
        }
        return sources.joined(separator: " ")
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for i in start...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        }
        return nil
    }

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
            + endpoints.map({ ("POST", $0) })
            + [("POST", FontStoreEndpoint.path), ("GET", FontStoreEndpoint.itemPath), ("PUT", FontStoreEndpoint.itemPath)]
        where metrics || path != "/metrics" {
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

    /// Rule: ready until the process starts shutting down (its fonts loaded before it listened).
    static func readiness(draining: Bool) -> TrellisResponse {
        guard !draining else {
            return ProblemDetails(status: 503, detail: "The service is shutting down.").response()
        }
        return json(ready)
    }

    /// The index at `/`, fixed for the process.
    static func indexAnswer(endpoints: [String], metrics: Bool = true) -> FixedAnswer {
        FixedAnswer(index(endpoints: endpoints, metrics: metrics), type: "application/json")
    }

    static func json(_ body: [UInt8]) -> TrellisResponse {
        TrellisResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
    }

    static func text(_ body: String, type: String) -> TrellisResponse {
        TrellisResponse(status: 200, headers: ["Content-Type": type], body: Array(body.utf8))
    }
}
