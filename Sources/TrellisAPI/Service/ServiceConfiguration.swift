/// What the HTTP layer needs to know beyond the socket settings.
public struct ServiceConfiguration: Sendable {
    public var cors: CORSPolicy
    public var log: AccessLog
    public var maxBodyBytes: Int

    public init(cors: CORSPolicy = .anyOrigin, log: AccessLog = AccessLog(enabled: false), maxBodyBytes: Int = 8 << 20) {
        self.cors = cors
        self.log = log
        self.maxBodyBytes = maxBodyBytes
    }
}
