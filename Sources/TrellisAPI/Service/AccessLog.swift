import TrellisJSON
import Glibc

/// `--log json`: one JSON line per request on stdout. Each line goes out in a single write(2),
/// so workers never share a lock and lines never interleave.
public struct AccessLog: Sendable {
    public let enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    func write(requestId: String, method: String, path: String, status: Int, micros: Int, bytesIn: Int, bytesOut: Int, entries: Int? = nil) {
        guard enabled else { return }
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.key("time"); json.string(Self.timestamp())
        json.key("requestId"); json.string(requestId)
        json.key("method"); json.string(method)
        json.key("path"); json.string(path)
        json.key("status"); json.int(status)
        json.key("durationUs"); json.int(micros)
        json.key("bytesIn"); json.int(bytesIn)
        json.key("bytesOut"); json.int(bytesOut)
        // A batch's line says how many entries it answered.
        if let entries { json.key("entries"); json.int(entries) }
        json.endObject()
        var line = json.bytes
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
    }

    /// UTC time in RFC 3339 with milliseconds.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ n: Int32, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + "\(pad(Int32(now.tv_nsec / 1_000_000), 3))Z"
    }
}
