import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The font files a client was given (`TrellisClient.addFont`), by id, shared by every copy of the client: when
/// the service answers that a request names a font it does not store, the client uploads the file and sends the
/// request again.
public final class TrellisFontFiles: @unchecked Sendable {
    // @unchecked: the table is only read and written under the lock.
    private let lock = NSLock()
    private var files: [String: Data] = [:]

    public init() {}

    func file(_ id: String) -> Data? { lock.withLock { files[id] } }
    func keep(_ data: Data, as id: String) { lock.withLock { files[id] = data } }

    /// The ids of the fonts kept.
    public var ids: [String] { lock.withLock { Array(files.keys) } }
}

extension TrellisClient {
    /// The problem type of a 422 whose request names, in `fontFaces`, a font the service does not store: each such
    /// error's pointer ends in `/fontFaces/k/src`.
    public static let fontNotStored = "tag:trellis,2026:font-not-stored"

    /// Times a request is sent again after uploading the fonts it names (another replica may answer it).
    static let fontRetries = 2

    /// An `@font-face` rule over a stored font (`src`: its id); the descriptors in CSS syntax.
    public struct FontFaceRule: Sendable, Equatable, Codable {
        public var family: String
        public var src: String
        /// A face of a collection (default 0).
        public var index: Int?
        /// `400`, or a range `100 900`.
        public var weight: String?
        /// `normal`, `italic`, `oblique`, `oblique 10deg 20deg`.
        public var style: String?
        /// `condensed`, `75%`, or a range `75% 125%`.
        public var stretch: String?
        /// `U+0000-00FF, U+0131`.
        public var unicodeRange: String?
        public var featureSettings: String?
        public var variationSettings: String?

        public init(
            family: String, src: String, index: Int? = nil, weight: String? = nil, style: String? = nil, stretch: String? = nil,
            unicodeRange: String? = nil, featureSettings: String? = nil, variationSettings: String? = nil
        ) {
            self.family = family
            self.src = src
            self.index = index
            self.weight = weight
            self.style = style
            self.stretch = stretch
            self.unicodeRange = unicodeRange
            self.featureSettings = featureSettings
            self.variationSettings = variationSettings
        }
    }

    /// A stored font: its format and size as sent, and its faces with their variation axes and named instances.
    public struct FontMetadata: Sendable, Equatable, Codable {
        public struct Axis: Sendable, Equatable, Codable {
            public var tag: String
            public var min: Double
            public var `default`: Double
            public var max: Double
        }

        public struct NamedInstance: Sendable, Equatable, Codable {
            public var name: String
            /// The coordinate on every axis, in the order of `axes`.
            public var coordinates: [Double]
        }

        public struct Face: Sendable, Equatable, Codable {
            public var index: Int
            public var family: String
            public var weight: Int
            public var style: String
            public var stretch: String
            public var axes: [Axis]
            public var namedInstances: [NamedInstance]
        }

        public var id: String
        /// truetype, opentype, collection, woff or woff2.
        public var format: String
        /// Bytes as sent.
        public var size: Int
        public var sanitizedSize: Int
        public var faces: [Face]
    }

    /// Uploads a font file with POST /v1/fonts (the service hashes it), keeps its bytes for the requests that name it,
    /// and answers its metadata; `id` is what `fontFaces` rules name as `src`.
    public func addFont(_ data: Data, requestID: String? = nil) async throws(TrellisClientError) -> FontMetadata {
        let metadata = try await fontRequest("POST", "/v1/fonts", body: data, requestID: requestID)
        fontFiles.keep(data, as: metadata.id)
        return metadata
    }

    /// PUT /v1/fonts/{id}: uploads a kept font file again (the service answers 200 when it stores it already).
    public func storeFont(_ id: String, requestID: String? = nil) async throws(TrellisClientError) -> FontMetadata {
        guard let data = fontFiles.file(id) else { throw .invalidRequest(detail: "no font file \(id) was given to addFont") }
        return try await fontRequest("PUT", "/v1/fonts/" + id, body: data, requestID: requestID)
    }

    /// GET /v1/fonts/{id}: a stored font's metadata (a 404 problem when it is not stored).
    public func fontMetadata(_ id: String, requestID: String? = nil) async throws(TrellisClientError) -> FontMetadata {
        try await fontRequest("GET", "/v1/fonts/" + id, body: nil, requestID: requestID)
    }

    private func fontRequest(_ method: String, _ path: String, body: Data?, requestID: String?) async throws(TrellisClientError) -> FontMetadata {
        let url = path.split(separator: "/").map(String.init).reduce(baseURL) { $0.appendingPathComponent($1) }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let id = requestID ?? self.requestID { request.setValue(id, forHTTPHeaderField: "X-Request-Id") }
        let (data, http) = try await exchange(request)
        let answerID = http.value(forHTTPHeaderField: "X-Request-Id")
        guard (200..<300).contains(http.statusCode) else {
            throw .problem(Self.problem(status: http.statusCode, body: data, requestID: answerID))
        }
        do {
            return try JSONDecoder().decode(FontMetadata.self, from: data)
        } catch {
            throw .undecodableResponse(status: http.statusCode, requestID: answerID, detail: String(describing: error))
        }
    }

    /// The kept fonts a font-not-stored problem names (the `src` its pointers lead to in `body`), or nil when it is
    /// another problem or names a font this client was not given.
    func fontsToUpload(_ problem: TrellisProblem, body: Data) -> [String]? {
        guard problem.type == Self.fontNotStored, let root = try? JSONSerialization.jsonObject(with: body) else { return nil }
        var ids: [String] = []
        for error in problem.errors where error.pointer.hasSuffix("/src") {
            guard let id = Self.value(at: error.pointer, in: root) as? String, fontFiles.file(id) != nil else { return nil }
            if !ids.contains(id) { ids.append(id) }
        }
        return ids.isEmpty ? nil : ids
    }

    /// The kept fonts that a batch's entries answered with a font-not-stored problem name (each entry's pointers lead
    /// into its own `body` in the batch's `body`), or nil when there are none or one names a font this client was not
    /// given.
    func fontsToUpload(_ batch: BatchResponse, body: Data) -> [String]? {
        let entries = batch.responses.enumerated().compactMap { index, answer -> (Int, TrellisProblem)? in
            guard case .failure(.problem(let problem)) = answer.result, problem.type == Self.fontNotStored else { return nil }
            return (index, problem)
        }
        guard !entries.isEmpty, let root = try? JSONSerialization.jsonObject(with: body) else { return nil }
        var ids: [String] = []
        for (index, problem) in entries {
            guard let entryBody = Self.value(at: "/requests/\(index)/body", in: root) else { return nil }
            for error in problem.errors where error.pointer.hasSuffix("/src") {
                guard let id = Self.value(at: error.pointer, in: entryBody) as? String, fontFiles.file(id) != nil else { return nil }
                if !ids.contains(id) { ids.append(id) }
            }
        }
        return ids.isEmpty ? nil : ids
    }

    /// RFC 6901: the value a pointer leads to.
    static func value(at pointer: String, in root: Any) -> Any? {
        var here: Any = root
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let object = here as? [String: Any], let next = object[key] {
                here = next
            } else if let array = here as? [Any], let index = Int(key), array.indices.contains(index) {
                here = array[index]
            } else {
                return nil
            }
        }
        return here
    }
}
