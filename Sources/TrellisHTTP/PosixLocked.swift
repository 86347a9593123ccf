import Glibc

/// A value shared between threads behind a POSIX mutex.
///
/// Rule: state that the server's worker threads read while another thread sets it goes through a
/// lock that ThreadSanitizer sees. Synchronization.Mutex locks with futex calls on Linux, which
/// ThreadSanitizer does not intercept, so it reports every access under such a lock as a race.
public final class PosixLocked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched between pthread_mutex_lock and pthread_mutex_unlock.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
