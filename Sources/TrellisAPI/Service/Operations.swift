import HTTPServer

/// The operations endpoints' bodies: index, health, readiness, the OpenAPI document.
enum Operations {
    static let healthy: [UInt8] = Array(#"{"status":"ok"}"#.utf8)
    static let ready: [UInt8] = Array(#"{"status":"ready"}"#.utf8)
    static let openAPI = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)

    static func index(endpoints: [String]) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        json.key("service"); json.string(TrellisService.name)
        json.key("version"); json.string(TrellisService.version)
        json.key("endpoints")
        json.beginArray()
        for (method, path) in [("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/metrics"), ("GET", "/openapi.yaml")]
            + endpoints.map({ ("POST", $0) }) {
            json.beginObject()
            json.key("method"); json.string(method)
            json.key("path"); json.string(path)
            json.endObject()
        }
        json.endArray()
        json.key("openapi"); json.string("/openapi.yaml")
        json.endObject()
        return json.bytes
    }

    static func readiness(draining: Bool) -> HTTPResponse {
        guard !draining else {
            return ProblemDetails(status: 503, detail: "The service is shutting down.").response()
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
