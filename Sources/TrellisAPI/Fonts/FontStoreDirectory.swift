import Glibc
import TrellisText

/// Where stored fonts outlive the process (`--font-store-dir`): one file per font, `<id>.font`, holding a
/// header (the format and size as sent, the number of sanitized files and their lengths) and OTS's output, written
/// to a temporary name and renamed into place. At start the files are read back without sanitizing them again
/// (they are this server's own output). Writing is best effort: a font that could not be written is still stored
/// in memory.
public final class FontStoreDirectory: Sendable {
    public let path: String

    /// Rule: the header: "TRELFONT", then big-endian 64-bit words: version << 32 | format, the size as sent, the
    /// number of sanitized files, then each one's length.
    static let magic = Array("TRELFONT".utf8)
    static let version: UInt64 = 2

    /// nil when `path` is not a directory this process can write to (it is made, mode 0700, when missing).
    public init?(path: String) {
        mkdir(path, 0o700)
        guard access(path, W_OK | X_OK) == 0 else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        self.path = path
    }

    func file(_ id: FontID) -> String { path + "/" + id.description + ".font" }

    func save(_ font: StoredFont) {
        var header = Self.magic
        header += bigEndian(Self.version << 32 | UInt64(FontFormat.allCases.firstIndex(of: font.format) ?? 0))
        header += bigEndian(UInt64(font.sentBytes))
        header += bigEndian(UInt64(font.files.count))
        for file in font.files { header += bigEndian(UInt64(file.byteCount)) }
        let temporary = path + "/." + font.id.description + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var written = header.withUnsafeBytes { writeAll(fd, $0) }
        for file in font.files where written { written = file.withBytes { writeAll(fd, $0) } }
        close(fd)
        if !written || rename(temporary, file(font.id)) != 0 { unlink(temporary) }
    }

    func remove(_ id: FontID) { unlink(file(id)) }

    /// The fonts kept, oldest first; unreadable files, leftovers of interrupted writes and files whose sanitized
    /// bytes pass `maxSanitizedBytes` are removed.
    func load(maxSanitizedBytes: Int) -> [StoredFont] {
        var found: [(modified: Int, font: StoredFont)] = []
        for name in FontFiles.directoryEntries(path) where name != "." && name != ".." {
            let full = path + "/" + name
            if name.hasPrefix(".") && name.hasSuffix(".tmp") {
                unlink(full)
                continue
            }
            guard name.hasSuffix(".font"), let id = FontID(name.dropLast(".font".count)) else { continue }
            guard let (modified, font) = read(full, id: id, maxSanitizedBytes: maxSanitizedBytes) else {
                unlink(full)
                continue
            }
            found.append((modified, font))
        }
        return found.sorted { $0.modified < $1.modified }.map(\.font)
    }

    private func read(_ full: String, id: FontID, maxSanitizedBytes: Int) -> (Int, StoredFont)? {
        let fd = open(full, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        guard let words = readWords(fd, 3), words.magic == Self.magic else { return nil }
        let formatIndex = Int(words.values[0] & 0xFFFF_FFFF)
        let sent = words.values[1], count = words.values[2]
        guard words.values[0] >> 32 == Self.version, formatIndex < FontFormat.allCases.count, sent > 0, sent < 1 << 40,
            count >= 1, count <= UInt64(StoredFont.maxFaces), let lengths = readWords(fd, Int(count), magic: false)?.values
        else { return nil }
        let total = lengths.reduce(0, { $0 &+ $1 })
        let headerBytes = Self.magic.count + 8 * (3 + lengths.count)
        guard lengths.allSatisfy({ $0 > 0 }), total <= UInt64(maxSanitizedBytes), Int(info.st_size) == headerBytes + Int(total)
        else { return nil }
        var files: [FontFile] = []
        for length in lengths.map(Int.init) {
            guard let base = malloc(length) else { return nil }
            guard readAll(fd, UnsafeMutableRawBufferPointer(start: base, count: length)) else {
                free(base)
                return nil
            }
            guard let file = FontFile(adoptingMemory: base, length: length) else { return nil }
            files.append(file)
        }
        guard let font = StoredFont(id: id, format: FontFormat.allCases[formatIndex], sentBytes: Int(sent), files: files)
        else { return nil }
        return (Int(info.st_mtim.tv_sec), font)
    }

    /// `count` big-endian 64-bit words, after the magic when `magic` (the first word read is then the magic).
    private func readWords(_ fd: Int32, _ count: Int, magic: Bool = true) -> (magic: [UInt8], values: [UInt64])? {
        let prefix = magic ? Self.magic.count : 0
        var bytes = [UInt8](repeating: 0, count: prefix + 8 * count)
        guard bytes.withUnsafeMutableBytes({ readAll(fd, $0) }) else { return nil }
        let values = (0..<count).map { word in
            bytes[(prefix + 8 * word)..<(prefix + 8 * word + 8)].reduce(0) { $0 << 8 | UInt64($1) }
        }
        return (Array(bytes.prefix(prefix)), values)
    }
}

private func bigEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * $0)) }
}

private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var done = 0
    while done < bytes.count {
        let n = write(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        done += n
    }
    return true
}

private func readAll(_ fd: Int32, _ bytes: UnsafeMutableRawBufferPointer) -> Bool {
    var done = 0
    while done < bytes.count {
        let n = read(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        done += n
    }
    return true
}
