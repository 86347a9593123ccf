import TrellisCore
import XCTest

final class DrawerReducerTests: XCTestCase {
    private let closed = DrawerState(isPresented: false)
    private let open = DrawerState(isPresented: true)

    func testToggleFlipsBothStates() {
        XCTAssertEqual(DrawerReducer.reduce(closed, .toggle), open)
        XCTAssertEqual(DrawerReducer.reduce(open, .toggle), closed)
    }

    func testOpenPresentsFromBothStates() {
        XCTAssertEqual(DrawerReducer.reduce(closed, .open), open)
        XCTAssertEqual(DrawerReducer.reduce(open, .open), open)
    }

    func testCloseDismissesFromBothStates() {
        XCTAssertEqual(DrawerReducer.reduce(closed, .close), closed)
        XCTAssertEqual(DrawerReducer.reduce(open, .close), closed)
    }

    func testTapMaskClosesAnOpenDrawerAndDoesNothingWhenClosed() {
        XCTAssertEqual(DrawerReducer.reduce(open, .tapMask), closed)
        XCTAssertEqual(DrawerReducer.reduce(closed, .tapMask), closed)
    }

    func testActionsCarryTheirWireNames() {
        XCTAssertEqual(DrawerAction.allCases.map { "\($0)" }, ["toggle", "open", "close", "tapMask"])
    }
}
