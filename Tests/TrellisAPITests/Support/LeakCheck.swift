import Foundation
import XCTest

/// `make asan-test` runs the tests under AddressSanitizer with LeakSanitizer's check at exit off
/// (ASAN_OPTIONS=leak_check_at_exit=0) and TRELLIS_LEAK_CHECK=1. XCTest on Linux never frees its
/// suites, runs and test cases (they hold each other in cycles), so the check at exit reports
/// them, and everything the test cases hold, as leaks. Instead, this observer runs LeakSanitizer
/// once after the last test, while XCTest's objects are still reachable, so that it reports only
/// memory nothing points to any more, and then exits 1 if there was any.
final class LeakCheckTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        _ = LeakCheck.observer
    }

    func testLeakCheckIsArmedWhenAsked() {
        guard LeakCheck.requested else { return }
        XCTAssertNotNil(LeakCheck.observer, "TRELLIS_LEAK_CHECK=1, but this build has no LeakSanitizer")
    }
}

final class LeakCheck: NSObject, XCTestObservation, Sendable {
    typealias Check = @convention(c) () -> CInt
    let check: Check

    init(check: Check) {
        self.check = check
    }

    static var requested: Bool { ProcessInfo.processInfo.environment["TRELLIS_LEAK_CHECK"] == "1" }

    /// Registered with XCTest the first time it is read, when asked for and in a build with LeakSanitizer.
    static let observer: LeakCheck? = {
        guard requested, let program = dlopen(nil, RTLD_NOW),
              let symbol = dlsym(program, "__lsan_do_recoverable_leak_check")
        else { return nil }
        let observer = LeakCheck(check: unsafeBitCast(symbol, to: Check.self))
        XCTestObservationCenter.shared.addTestObserver(observer)
        return observer
    }()

    func testBundleDidFinish(_ testBundle: Bundle) {
        if check() != 0 {
            print("LeakSanitizer found leaks after the last test (report above)")
            exit(1)
        }
        print("LeakSanitizer: no leaks after the last test")
    }
}
