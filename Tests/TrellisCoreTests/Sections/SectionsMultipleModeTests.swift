import TrellisCore
import XCTest

/// Multiple mode: toggle flips, expand adds, collapse removes, expandAll / collapseAll.
final class SectionsMultipleModeTests: XCTestCase {
    private func multiple(_ expanded: [Bool], collapsible: Bool = true) -> SectionsState {
        SectionsState(expanded: expanded, mode: .multiple, collapsible: collapsible)
    }

    private func reduce(_ state: SectionsState, _ action: SectionsAction) -> SectionsState {
        SectionsReducer.reduce(state, action)
    }

    func testToggleOpensAClosedSectionAndLeavesTheOthers() {
        XCTAssertEqual(reduce(multiple([false, false, false]), .toggle(2)), multiple([false, false, true]))
        XCTAssertEqual(reduce(multiple([false, true, false]), .toggle(0)), multiple([true, true, false]))
    }

    func testToggleClosesAnOpenSectionAndLeavesTheOthers() {
        XCTAssertEqual(reduce(multiple([true, true, false]), .toggle(1)), multiple([true, false, false]))
        XCTAssertEqual(reduce(multiple([true, true, true]), .toggle(0)), multiple([false, true, true]))
    }

    func testExpandOpensAClosedSection() {
        XCTAssertEqual(reduce(multiple([false, true, false]), .expand(2)), multiple([false, true, true]))
        XCTAssertEqual(reduce(multiple([false, false, false]), .expand(0)), multiple([true, false, false]))
    }

    func testExpandOfAnOpenSectionChangesNothing() {
        XCTAssertEqual(reduce(multiple([false, true, false]), .expand(1)), multiple([false, true, false]))
    }

    func testCollapseClosesAnOpenSection() {
        XCTAssertEqual(reduce(multiple([true, true, false]), .collapse(0)), multiple([false, true, false]))
    }

    func testCollapseOfAClosedSectionChangesNothing() {
        XCTAssertEqual(reduce(multiple([true, false, false]), .collapse(2)), multiple([true, false, false]))
        XCTAssertEqual(reduce(multiple([false, false, false]), .collapse(1)), multiple([false, false, false]))
    }

    func testExpandAllOpensEverySection() {
        XCTAssertEqual(reduce(multiple([false, false, false]), .expandAll), multiple([true, true, true]))
        XCTAssertEqual(reduce(multiple([false, true, false]), .expandAll), multiple([true, true, true]))
        XCTAssertEqual(reduce(multiple([true, true, true]), .expandAll), multiple([true, true, true]))
    }

    func testCollapseAllClosesEverySection() {
        XCTAssertEqual(reduce(multiple([true, true, true]), .collapseAll), multiple([false, false, false]))
        XCTAssertEqual(reduce(multiple([true, false, true]), .collapseAll), multiple([false, false, false]))
        XCTAssertEqual(reduce(multiple([false, false, false]), .collapseAll), multiple([false, false, false]))
    }

    func testExpandAllAndCollapseAllWithNoSections() {
        XCTAssertEqual(reduce(multiple([]), .expandAll), multiple([]))
        XCTAssertEqual(reduce(multiple([]), .collapseAll), multiple([]))
    }

    func testToggleOfTheOnlySectionTwiceRestoresIt() {
        let opened = reduce(multiple([false]), .toggle(0))
        XCTAssertEqual(opened, multiple([true]))
        XCTAssertEqual(reduce(opened, .toggle(0)), multiple([false]))
    }

    /// Rule: `collapsible` applies to single mode only, so false changes nothing here.
    func testCollapsibleFalseIsIgnoredInMultipleMode() {
        let state = multiple([true, true, false], collapsible: false)
        XCTAssertEqual(reduce(state, .toggle(0)), multiple([false, true, false], collapsible: false))
        XCTAssertEqual(reduce(state, .collapse(1)), multiple([true, false, false], collapsible: false))
        XCTAssertEqual(reduce(state, .collapseAll), multiple([false, false, false], collapsible: false))
        XCTAssertEqual(reduce(state, .toggle(2)), multiple([true, true, true], collapsible: false))
        XCTAssertEqual(reduce(state, .expandAll), multiple([true, true, true], collapsible: false))
    }
}
