import Foundation
import TrellisAPI
import TrellisHTTP

/// Calls the service directly, without a socket: router-level tests.
public func call(
    _ service: TrellisService, _ method: String, _ path: String, json: String? = nil,
    headers: [(String, String)] = []
) -> TestResponse {
    var fields = TrellisHeaders()
    if json != nil { fields.add("Content-Type", "application/json") }
    for (name, value) in headers { fields.add(name, value) }
    let bytes = Array((json ?? "").utf8)
    let response = bytes.withUnsafeBytes { body in
        service.handle(TrellisRequest(method: method, path: path, headers: fields, body: body))
    }
    return TestResponse(
        status: response.status, headers: response.headers.fields.map { ($0.name, $0.value) }, body: response.body.bytes)
}
