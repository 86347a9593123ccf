import Glibc
import TrellisJSON

/// Every feature's samples: Sources/TrellisAPI/<Feature>/samples.json (scripts/trellis_samples.py describes the
/// files and the recipes' language; this reads and expands them the same way).
public struct SampleSet: Sendable {
    /// The batch's path: its entries are requests to the other paths.
    public static let batchPath = "/v1/batch"
    /// The size the fuzz seeds and the answer corpus expand recipes at, and the fuzz target's small normal request.
    public static let small = 256
    /// The fuzz target's large normal request (about its longest input).
    public static let large = 16_000

    /// The repository this was built from.
    public static let repository: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/TrellisSamples/SampleSet.swift
        return parts.joined(separator: "/")
    }()

    public let samples: [Sample]
    /// The feature paths (every path with samples but the batch's), sorted.
    public let paths: [String]

    /// Reads every Sources/TrellisAPI/<Feature>/samples.json of the repository.
    public static func load(repository: String = SampleSet.repository) throws(SampleError) -> SampleSet {
        let features = repository + "/Sources/TrellisAPI"
        var files: [(folder: String, bytes: [UInt8])] = []
        for folder in SampleFiles.directories(in: features).sorted() {
            if let bytes = SampleFiles.read(features + "/" + folder + "/samples.json") { files.append((folder, bytes)) }
        }
        return try SampleSet(files: files)
    }

    /// The samples of these files (each a feature folder's samples.json).
    init(files: [(folder: String, bytes: [UInt8])]) throws(SampleError) {
        var samples: [Sample] = []
        var paths = Set<String>()
        let parsed = try files.map { (file) throws(SampleError) in (file.folder, try Self.parse(file.bytes, name: file.folder + "/samples.json")) }
        // A file's `shared` names are seen by every file's recipes.
        var shared: [SampleValue.Member] = []
        for (folder, file) in parsed {
            guard case .object(let members)? = file["shared"] else { continue }
            for member in members {
                guard !shared.contains(where: { $0.key == member.key }) else {
                    throw SampleError("\(folder)/samples.json shares \(member.key), which another file shares")
                }
                shared.append(member)
            }
        }
        for (folder, file) in parsed {
            var filePaths: [String] = []
            if case .array(let items)? = file["paths"] { filePaths = items.compactMap(\.string) }
            guard !filePaths.isEmpty else { throw SampleError("\(folder)/samples.json has no paths") }
            paths.formUnion(filePaths)
            var lets = shared
            if case .object(let members)? = file["let"] { lets += members }
            guard case .array(let items)? = file["samples"] else { throw SampleError("\(folder)/samples.json has no samples") }
            for item in items { samples.append(try Sample(item, folder: folder, filePaths: filePaths, lets: lets)) }
        }
        var seen = Set<String>()
        for sample in samples {
            for path in sample.paths where !seen.insert(path + " " + sample.name).inserted {
                throw SampleError("two samples of \(path) are named \(sample.name)")
            }
        }
        paths.remove(Self.batchPath)
        self.samples = samples
        self.paths = paths.sorted()
    }

    static func parse(_ bytes: [UInt8], name: String) throws(SampleError) -> SampleValue {
        let padded = bytes + [UInt8](repeating: 0, count: JSONDocument.padding)
        let result = padded.withUnsafeBytes { raw in
            JSONDocument.parse(UnsafeRawBufferPointer(rebasing: raw[0..<bytes.count]), padded: true)
                .map { document in Result { () throws(SampleError) in try SampleValue(document.root) } }
        }
        switch result {
        case .success(.success(let value)): return value
        case .success(.failure(let error)): throw SampleError("\(name): \(error)")
        case .failure(let error): throw SampleError("\(name) is not JSON: \(error)")
        }
    }

    /// The samples of a path.
    public func of(_ path: String) -> [Sample] {
        samples.filter { $0.paths.contains(path) }
    }

    /// The one normal sample of `path` that the fuzz target calibrates with; a path without one is an error.
    public func fuzzerNormal(for path: String) throws(SampleError) -> Sample {
        let found = samples.filter { $0.paths.contains(path) && $0.kind == .normal && $0.fuzzer }
        guard found.count == 1 else {
            throw SampleError("\(path) has \(found.count) normal samples marked \"fuzzer\" in its feature's samples.json (one is needed)")
        }
        return found[0]
    }

    /// The normal sample of `path` with a larger answer that the fuzz target measures a normal answer's cost per byte
    /// with, if its feature marks one (`"fuzzer": "answer"`); more than one is an error.
    public func fuzzerAnswerNormal(for path: String) throws(SampleError) -> Sample? {
        let found = samples.filter { $0.paths.contains(path) && $0.kind == .normal && $0.fuzzerAnswer }
        guard found.count <= 1 else {
            throw SampleError("\(path) has \(found.count) normal samples marked \"fuzzer\": \"answer\" (at most one is allowed)")
        }
        return found.first
    }

    /// The request as a JSON value: a body, or a recipe expanded for `size` (the body bytes it aims at) and `salt`.
    public func value(_ sample: Sample, size: Int, salt: Int) throws(SampleError) -> SampleValue {
        switch sample.content {
        case .body(let value): return value
        case .raw: throw SampleError("\(sample.folder)/\(sample.name) is raw bytes, not JSON")
        case .recipe(let template):
            let environment = SampleEnvironment(samples: self, size: size, salt: salt)
            do {
                for (name, value) in sample.lets { environment.variables[name] = try value.expand(environment) }
                return try template.expand(environment)
            } catch {
                throw SampleError("\(sample.folder)/samples.json, \(sample.name): \(error)")
            }
        }
    }

    /// The request's bytes, written in `style`.
    public func body(_ sample: Sample, size: Int, salt: Int, style: SampleValue.Style = .compact) throws(SampleError) -> [UInt8] {
        if case .raw(let text) = sample.content { return Array(text.utf8) }
        return Array(try value(sample, size: size, salt: salt).json(style).utf8)
    }
}

/// Files for the samples, through the C library (the fuzz target links no Foundation).
enum SampleFiles {
    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    static func directories(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix("."), Int32(entry.pointee.d_type) == Int32(DT_DIR) { names.append(name) }
        }
        return names
    }
}
