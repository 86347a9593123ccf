import TrellisCore
import XCTest

final class DrawerGeometryTests: XCTestCase {
    private let container = Size(width: 390, height: 844)
    private let insets = DrawerInsets(top: 47, leading: 44, bottom: 34, trailing: 20)

    private func layout(_ edge: DrawerEdge, _ direction: DrawerLayoutDirection, _ insets: DrawerInsets) -> DrawerLayout {
        DrawerLayout(container: container, drawerWidth: 200, edge: edge, layoutDirection: direction, safeAreaInsets: insets, maskOpacity: 0.2)
    }

    private func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
        Rect(x: x, y: y, width: w, height: h)
    }

    private func assertGeometry(
        _ layout: DrawerLayout,
        open: (panel: Rect, content: Rect),
        closed: (panel: Rect, content: Rect),
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let mask = rect(0, 0, 390, 844)
        XCTAssertEqual(
            layout.geometry(isPresented: true),
            DrawerGeometry(panelFrame: open.panel, contentFrame: open.content, panelVisible: true, maskFrame: mask, maskOpacity: 0.2, maskVisible: true),
            file: file, line: line
        )
        XCTAssertEqual(
            layout.geometry(isPresented: false),
            DrawerGeometry(panelFrame: closed.panel, contentFrame: closed.content, panelVisible: false, maskFrame: mask, maskOpacity: 0, maskVisible: false),
            file: file, line: line
        )
    }

    func testLeadingLTRWithoutInsetsIsOnTheLeft() {
        assertGeometry(
            layout(.leading, .ltr, .zero),
            open: (rect(0, 0, 200, 844), rect(0, 0, 200, 844)),
            closed: (rect(-200, 0, 200, 844), rect(-200, 0, 200, 844))
        )
    }

    func testLeadingRTLWithoutInsetsIsOnTheRight() {
        assertGeometry(
            layout(.leading, .rtl, .zero),
            open: (rect(190, 0, 200, 844), rect(190, 0, 200, 844)),
            closed: (rect(390, 0, 200, 844), rect(390, 0, 200, 844))
        )
    }

    func testTrailingLTRWithoutInsetsIsOnTheRight() {
        assertGeometry(
            layout(.trailing, .ltr, .zero),
            open: (rect(190, 0, 200, 844), rect(190, 0, 200, 844)),
            closed: (rect(390, 0, 200, 844), rect(390, 0, 200, 844))
        )
    }

    func testTrailingRTLWithoutInsetsIsOnTheLeft() {
        assertGeometry(
            layout(.trailing, .rtl, .zero),
            open: (rect(0, 0, 200, 844), rect(0, 0, 200, 844)),
            closed: (rect(-200, 0, 200, 844), rect(-200, 0, 200, 844))
        )
    }

    func testLeadingLTRWithInsetsWidensThePanelByTheLeadingInset() {
        assertGeometry(
            layout(.leading, .ltr, insets),
            open: (rect(0, 0, 244, 844), rect(44, 47, 200, 763)),
            closed: (rect(-244, 0, 244, 844), rect(-200, 47, 200, 763))
        )
    }

    func testLeadingRTLWithInsetsUsesTheLeadingInsetOnTheRight() {
        assertGeometry(
            layout(.leading, .rtl, insets),
            open: (rect(146, 0, 244, 844), rect(146, 47, 200, 763)),
            closed: (rect(390, 0, 244, 844), rect(390, 47, 200, 763))
        )
    }

    func testTrailingLTRWithInsetsUsesTheTrailingInsetOnTheRight() {
        assertGeometry(
            layout(.trailing, .ltr, insets),
            open: (rect(170, 0, 220, 844), rect(170, 47, 200, 763)),
            closed: (rect(390, 0, 220, 844), rect(390, 47, 200, 763))
        )
    }

    func testTrailingRTLWithInsetsUsesTheTrailingInsetOnTheLeft() {
        assertGeometry(
            layout(.trailing, .rtl, insets),
            open: (rect(0, 0, 220, 844), rect(20, 47, 200, 763)),
            closed: (rect(-220, 0, 220, 844), rect(-200, 47, 200, 763))
        )
    }

    func testNotchedPhoneExampleOpenFrames() {
        let example = DrawerLayout(container: container, safeAreaInsets: DrawerInsets(top: 47, leading: 0, bottom: 34, trailing: 0))
        XCTAssertEqual(example.panelFrame(isPresented: true), rect(0, 0, 200, 844))
        XCTAssertEqual(example.contentFrame(isPresented: true), rect(0, 47, 200, 763))
    }

    func testContentHeightNeverGoesNegative() {
        let short = DrawerLayout(container: Size(width: 390, height: 60), safeAreaInsets: DrawerInsets(top: 47, bottom: 34))
        XCTAssertEqual(short.contentFrame(isPresented: true), rect(0, 47, 200, 0))
    }
}
