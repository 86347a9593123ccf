import Glibc

/// A directory only this process's user can enter, made with mkdtemp, holding a few named files.
struct PrivateDirectory {
    let root: String
    private static let names = ["font", "sanitized", "messages", "errors"]

    init?(under base: String) {
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast()) + Array("trellis-font-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { return nil }
        root = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func path(_ name: String) -> String { root + "/" + name }

    /// A new file (mode 0600) open for writing; nil when it cannot be made.
    func create(_ name: String) -> Int32? {
        let fd = open(path(name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        return fd >= 0 ? fd : nil
    }

    func write(_ bytes: UnsafeRawBufferPointer, to name: String) -> Bool {
        guard let fd = create(name) else { return false }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// At most `maxBytes` of a file.
    func read(_ name: String, maxBytes: Int) -> [UInt8]? {
        let fd = open(path(name), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: maxBytes)
        var done = 0
        while done < maxBytes {
            let n = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { Glibc.read(fd, $0 + done, maxBytes - done) } ?? 0
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return Array(bytes.prefix(done))
    }

    /// Removes the files this directory may hold, then the directory.
    func remove() {
        for name in Self.names { unlink(path(name)) }
        rmdir(root)
    }
}
