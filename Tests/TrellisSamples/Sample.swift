/// One sample request of a feature (a member of `samples` in Sources/TrellisAPI/<Feature>/samples.json).
public struct Sample: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// What a client normally sends.
        case normal
        /// Other forms of the request, values at and past the limits, problems.
        case edge
        /// Crafted to cost more than its size: compared with a normal sample of its group.
        case cost
    }

    /// The request: literally, as bytes that are not JSON, or as a recipe expanded for a size and a salt.
    enum Content: Sendable {
        case body(SampleValue)
        case raw(String)
        case recipe(SampleTemplate)
    }

    static let fields: Set<String> = ["name", "path", "kind", "title", "about", "group", "fuzzer", "fonts", "let", "body", "raw", "recipe"]

    /// The fuzz seed's file name; unique among its paths' samples.
    public let name: String
    public let paths: [String]
    public let kind: Kind
    /// What bench/cost.py prints.
    public let title: String
    /// bench/cost.py's row group: a normal sample is its yardstick, a cost sample is compared with it.
    public let group: String?
    /// The one normal sample per path that the fuzz target measures its cost check against (`"fuzzer": true`).
    public let fuzzer: Bool
    /// A normal sample whose answer is larger than the `fuzzer` one's at the same size (`"fuzzer": "answer"`): the fuzz
    /// target measures what a normal answer costs per byte with it, for an endpoint whose answer can grow without its body.
    public let fuzzerAnswer: Bool
    /// Font files of Debian's fonts-noto-core the request needs besides the default fonts.
    public let fonts: [String]
    /// The feature folder it comes from (Sources/TrellisAPI/<folder>/samples.json).
    public let folder: String
    let content: Content
    let lets: [(name: String, value: SampleTemplate)]

    /// True for a recipe, which `size` and `salt` change.
    public var isRecipe: Bool {
        if case .recipe = content { return true }
        return false
    }

    init(_ value: SampleValue, folder: String, filePaths: [String], lets fileLets: [SampleValue.Member]) throws(SampleError) {
        guard case .object(let members) = value, let name = value["name"]?.string else {
            throw SampleError("\(folder)/samples.json: a sample is an object with a name")
        }
        let unknown = members.map(\.key).filter { !Self.fields.contains($0) }
        guard unknown.isEmpty else { throw SampleError("\(folder)/samples.json: \(name) has \(unknown), not among \(Self.fields.sorted())") }
        self.name = name
        self.folder = folder
        switch value["path"] {
        case .string(let path)?: paths = [path]
        case .array(let list)?: paths = list.compactMap(\.string)
        case nil where filePaths.count == 1: paths = filePaths
        default: throw SampleError("\(folder)/samples.json: \(name) needs its path")
        }
        guard let kind = value["kind"]?.string.flatMap(Kind.init(rawValue:)) else {
            throw SampleError("\(folder)/samples.json: \(name): kind is one of \(Kind.allCases.map(\.rawValue))")
        }
        self.kind = kind
        title = value["title"]?.string ?? name
        group = value["group"]?.string
        switch value["fuzzer"] {
        case nil, .bool(false)?: (fuzzer, fuzzerAnswer) = (false, false)
        case .bool(true)?: (fuzzer, fuzzerAnswer) = (true, false)
        case .string("answer")?: (fuzzer, fuzzerAnswer) = (false, true)
        default: throw SampleError("\(folder)/samples.json: \(name): fuzzer is true or \"answer\"")
        }
        if case .array(let files)? = value["fonts"] { fonts = files.compactMap(\.string) } else { fonts = [] }
        let forms = ["body", "raw", "recipe"].filter { value[$0] != nil }
        guard forms.count == 1 else { throw SampleError("\(folder)/samples.json: \(name) has one of body, raw and recipe") }
        switch forms[0] {
        case "body": content = .body(value["body"] ?? .null)
        case "raw":
            guard let text = value["raw"]?.string else { throw SampleError("\(folder)/samples.json: \(name)'s raw is a string") }
            content = .raw(text)
        default: content = .recipe(try SampleTemplate(value["recipe"] ?? .null))
        }
        var lets: [(name: String, value: SampleTemplate)] = []
        if case .recipe = content {
            var own: [SampleValue.Member] = []
            if case .object(let members)? = value["let"] { own = members }
            for member in fileLets + own { lets.append((member.key, try SampleTemplate(member.value))) }
        }
        self.lets = lets
    }
}
