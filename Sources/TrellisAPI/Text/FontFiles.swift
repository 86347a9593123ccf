import Glibc
import TrellisText

/// Start-up I/O for text measurement: which font files to load, and loading them.
public enum FontFiles {
    /// Rule: by default exactly the faces of these Debian packages: DejaVu (Latin, Greek,
    /// Cyrillic, Hebrew, Arabic), IPA Gothic (Japanese), Garuda (Thai), Nanum (Korean), Droid Sans
    /// Fallback (Chinese), Noto Color Emoji and Liberation (Chromium's standard font, Times New Roman, as fontconfig
    /// gives it: where a hyphen or an ellipsis no listed family has is shaped).
    public static let defaultPackages = [
        "fonts-dejavu-core", "fonts-dejavu-extra", "fonts-ipafont-gothic", "fonts-tlwg-garuda-ttf", "fonts-nanum",
        "fonts-droid-fallback", "fonts-noto-color-emoji", "fonts-liberation",
    ]
    /// Only a package's files where fontconfig finds them (the directory Chromium's fonts come from):
    /// fonts-droid-fallback also installs a smaller copy of its face elsewhere for Ghostscript.
    static let fontDirectory = "/usr/share/fonts/"
    public static let infoDirectory = "/var/lib/dpkg/info"
    /// Font files larger than this are skipped (the largest default face, IPAGothic, is about 6 MB).
    static let maxFileBytes = 64 << 20
    /// A font directory is searched this many levels deep, for at most this many files.
    static let maxDepth = 8
    static let maxFiles = 10_000

    /// Font files (.ttf, .otf, .ttc, .otc) of the default packages, from dpkg's file lists.
    public static func defaultFiles() -> [String] {
        defaultPackages.flatMap { packageFiles($0) }
    }

    /// The font files a Debian package installed, from `/var/lib/dpkg/info/<package>.list`.
    public static func packageFiles(_ package: String, infoDirectory: String = infoDirectory) -> [String] {
        var lists = ["\(infoDirectory)/\(package).list"]
        // Architecture-qualified lists (<package>:<arch>.list) for multi-arch packages.
        lists += directoryEntries(infoDirectory).filter { $0.hasPrefix(package + ":") && $0.hasSuffix(".list") }
            .map { "\(infoDirectory)/\($0)" }
        for list in lists {
            guard let bytes = readFile(list, maxBytes: 1 << 20) else { continue }
            let paths = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            return paths.filter { $0.hasPrefix(fontDirectory) && isFontFile($0) && isRegularFile($0) }.sorted()
        }
        return []
    }

    /// The font files in a directory and its subdirectories (sorted, bounded).
    public static func directoryFiles(_ directory: String) -> [String] {
        var found: [String] = []
        var pending: [(String, Int)] = [(directory, 0)]
        while let (path, depth) = pending.popLast(), found.count < maxFiles {
            for name in directoryEntries(path) where name != "." && name != ".." {
                let child = path.hasSuffix("/") ? path + name : path + "/" + name
                if isDirectory(child) {
                    if depth < maxDepth { pending.append((child, depth + 1)) }
                } else if isFontFile(child) && isRegularFile(child) {
                    found.append(child)
                }
            }
        }
        return found.sorted()
    }

    /// Every face of every file (each face of a collection, each named instance of a variable font:
    /// `FontFace.installedFaces`), each file once however many paths lead to it; the files that held none are
    /// returned apart.
    public static func load(_ paths: [String]) -> (faces: [FontFace], unusable: [String]) {
        var faces: [FontFace] = []
        var unusable: [String] = []
        var seen = Set<String>()
        for path in paths {
            guard let real = realpath(path, nil) else {
                unusable.append(path)
                continue
            }
            let resolved = String(cString: real)
            free(real)
            guard seen.insert(resolved).inserted else { continue }
            guard let file = mapFile(path, maxBytes: maxFileBytes) else {
                unusable.append(path)
                continue
            }
            let loaded = (0..<file.faceCount).flatMap { FontFace.installedFaces(file: file, index: $0) }
            if loaded.isEmpty { unusable.append(path) }
            faces += loaded
        }
        return (faces, unusable)
    }

    static func isFontFile(_ path: String) -> Bool {
        let lower = FontFamilyList.asciiLowercased(path)
        return [".ttf", ".otf", ".ttc", ".otc"].contains { lower.hasSuffix($0) }
    }

    static func isRegularFile(_ path: String) -> Bool { fileType(path) == S_IFREG }
    static func isDirectory(_ path: String) -> Bool { fileType(path) == S_IFDIR }

    private static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    static func directoryEntries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        // d_name is read where it lies: a dirent can be shorter than its declared 256-byte name field.
        guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return [] }
        while let entry = readdir(directory), names.count < maxFiles {
            names.append(String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self)))
        }
        return names
    }

    /// A whole file mapped read-only (its pages are read as HarfBuzz needs them: a shaper never touches
    /// the outlines), or nil when it cannot be mapped or is empty or larger than `maxBytes`.
    static func mapFile(_ path: String, maxBytes: Int) -> FontFile? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, Int(info.st_size) <= maxBytes else { return nil }
        let length = Int(info.st_size)
        guard let base = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        return FontFile(adoptingMapping: base, length: length)
    }

    /// A whole file, or nil when it cannot be read or is larger than `maxBytes`.
    static func readFile(_ path: String, maxBytes: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) <= maxBytes else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
            if bytes.count > maxBytes { return nil }
        }
    }
}
