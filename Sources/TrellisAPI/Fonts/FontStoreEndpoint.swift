import TrellisHTTP
import TrellisJSON
import TrellisText

/// The uploaded fonts: `PUT /v1/fonts/{id}` and `POST /v1/fonts` store a font file sent as the body (201 new, 200
/// stored already), `GET` and `HEAD /v1/fonts/{id}` answer a stored font's metadata (404 when it is not stored).
enum FontStoreEndpoint {
    /// The listing (GET) and uploads without an id (POST).
    static let path = "/v1/fonts"
    /// A stored font; the metrics count every id under this one route.
    static let itemPath = "/v1/fonts/{id}"
    static let itemPrefix = "/v1/fonts/"

    /// The id in a path under `itemPrefix` (as sent: it may not be a valid id).
    static func id(in path: String) -> Substring? {
        guard path.hasPrefix(itemPrefix) else { return nil }
        let id = path.dropFirst(itemPrefix.count)
        return id.isEmpty || id.contains("/") ? nil : id
    }

    /// Stores the request's body as a font file, under `claimed` when the client named the id (PUT).
    static func store(
        _ request: TrellisRequest, claimed: Substring?, _ configuration: ServiceConfiguration, deadline: ContinuousClock.Instant?
    ) throws(ProblemDetails) -> TrellisResponse {
        guard request.headers.withValue("Content-Type", { MediaType.isFont(bytes: $0) }) else {
            throw ProblemDetails(
                status: 415,
                detail: "Send the font file as the body with a font type (font/woff2, font/ttf, ...) or application/octet-stream.")
        }
        var id: FontID?
        if let claimed {
            guard let parsed = FontID(claimed) else {
                throw ProblemDetails(
                    status: 422, detail: "The path's id must be sha256- and the 64 lowercase hex digits of the SHA-256 of the file.")
            }
            id = parsed
        }
        let library = configuration.context.fontLibrary
        // Rule: OTS's output is reserved from the memory budget before it is read, and given back once the font is in
        // the store (whose memory --font-store-bytes bounds on its own).
        var reserved = 0
        defer { if reserved > 0 { configuration.memoryBudget?.release(reserved) } }
        let result = library.store(request.body, claimed: id, deadline: deadline) { bytes in
            guard let budget = configuration.memoryBudget else { return true }
            guard budget.reserve(bytes) else { return false }
            reserved += bytes
            return true
        }
        switch result {
        case .success(.created(let font)):
            return try answer(font, status: 201, configuration, headers: [("Location", itemPrefix + font.id.description)])
        case .success(.existing(let font)):
            return try answer(font, status: 200, configuration)
        case .failure(.tooLarge(let limit)):
            throw ProblemDetails(status: 413, detail: "The font file is larger than the limit of \(limit) bytes (--max-font-bytes).")
        case .failure(.tooLargeSanitized(let limit)):
            throw ProblemDetails(
                status: 413, detail: "The font, decoded and sanitized, would take more than the limit of \(limit) bytes.")
        case .failure(.idMismatch(let sent, let actual)):
            throw ProblemDetails(
                status: 422, detail: "The body's SHA-256 is \(actual), not the id it was sent to (\(sent)): send it to /v1/fonts/\(actual).")
        case .failure(.rejected(let reasons)):
            throw ProblemDetails(status: 422, detail: "Chromium would not use this font: the OpenType Sanitizer refuses it: \(reasons).")
        case .failure(.unavailable(let why)):
            throw .unavailable("The font could not be stored now: \(why).")
        }
    }

    /// `GET`/`HEAD /v1/fonts/{id}`: the stored font's metadata, or 404.
    static func metadata(_ id: Substring, _ configuration: ServiceConfiguration) throws(ProblemDetails) -> TrellisResponse {
        guard let id = FontID(id), let font = configuration.context.fontLibrary.store.font(id) else {
            throw ProblemDetails(status: 404, detail: "No font is stored under this id; upload it with PUT /v1/fonts/{id}.")
        }
        return try answer(font, status: 200, configuration)
    }

    private static func answer(
        _ font: StoredFont, status: Int, _ configuration: ServiceConfiguration, headers extra: [(String, String)] = []
    ) throws(ProblemDetails) -> TrellisResponse {
        var json = JSONWriter(capacity: 1024, budget: configuration.memoryBudget)
        FontMetadataResponse.write(font, to: &json)
        if json.failure != nil { throw .unavailable("The server is short of memory for this answer; retry shortly.") }
        var headers: TrellisHeaders = ["Content-Type": "application/json"]
        for (name, value) in extra { headers.add(name, value) }
        return TrellisResponse(status: status, headers: headers, body: json.body(budget: configuration.memoryBudget))
    }
}
