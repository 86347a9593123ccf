import TrellisCore
import XCTest

/// Single mode (accordion), with collapsible true and false.
final class SectionsSingleModeTests: XCTestCase {
    private func single(_ expanded: [Bool], collapsible: Bool = true) -> SectionsState {
        SectionsState(expanded: expanded, mode: .single, collapsible: collapsible)
    }

    private func fixed(_ expanded: [Bool]) -> SectionsState {
        single(expanded, collapsible: false)
    }

    private func reduce(_ state: SectionsState, _ action: SectionsAction) -> SectionsState {
        SectionsReducer.reduce(state, action)
    }

    // collapsible: true

    func testToggleOfAClosedSectionOpensItWhenNoneIsOpen() {
        XCTAssertEqual(reduce(single([false, false, false]), .toggle(1)), single([false, true, false]))
    }

    func testToggleOfAClosedSectionOpensItAndClosesTheOpenOne() {
        XCTAssertEqual(reduce(single([true, false, false]), .toggle(2)), single([false, false, true]))
    }

    func testToggleOfTheOpenSectionClosesIt() {
        XCTAssertEqual(reduce(single([false, true, false]), .toggle(1)), single([false, false, false]))
    }

    func testExpandOpensASectionAndClosesTheOthers() {
        XCTAssertEqual(reduce(single([false, false, false]), .expand(0)), single([true, false, false]))
        XCTAssertEqual(reduce(single([false, true, false]), .expand(0)), single([true, false, false]))
    }

    func testExpandOfTheOpenSectionChangesNothing() {
        XCTAssertEqual(reduce(single([false, true, false]), .expand(1)), single([false, true, false]))
    }

    func testCollapseClosesTheOpenSection() {
        XCTAssertEqual(reduce(single([false, true, false]), .collapse(1)), single([false, false, false]))
    }

    func testCollapseOfAClosedSectionChangesNothing() {
        XCTAssertEqual(reduce(single([false, true, false]), .collapse(0)), single([false, true, false]))
        XCTAssertEqual(reduce(single([false, false, false]), .collapse(2)), single([false, false, false]))
    }

    func testCollapseAllClosesTheOpenSection() {
        XCTAssertEqual(reduce(single([false, false, true]), .collapseAll), single([false, false, false]))
        XCTAssertEqual(reduce(single([false, false, false]), .collapseAll), single([false, false, false]))
    }

    /// Decision: expandAll in single mode (422 at the API) is a no-op in the reducer.
    func testExpandAllIsANoOp() {
        XCTAssertEqual(reduce(single([false, true, false]), .expandAll), single([false, true, false]))
        XCTAssertEqual(reduce(single([false, false, false]), .expandAll), single([false, false, false]))
        XCTAssertEqual(reduce(single([false]), .expandAll), single([false]))
        XCTAssertEqual(reduce(fixed([true, false]), .expandAll), fixed([true, false]))
        XCTAssertEqual(reduce(fixed([]), .expandAll), fixed([]))
    }

    // collapsible: false

    func testNotCollapsibleToggleOfTheOpenSectionLeavesItOpen() {
        XCTAssertEqual(reduce(fixed([false, true, false]), .toggle(1)), fixed([false, true, false]))
    }

    func testNotCollapsibleToggleOfAClosedSectionStillSwitches() {
        XCTAssertEqual(reduce(fixed([false, true, false]), .toggle(0)), fixed([true, false, false]))
        XCTAssertEqual(reduce(fixed([false, false, false]), .toggle(2)), fixed([false, false, true]))
    }

    func testNotCollapsibleExpandStillSwitches() {
        XCTAssertEqual(reduce(fixed([true, false, false]), .expand(2)), fixed([false, false, true]))
        XCTAssertEqual(reduce(fixed([false, false, false]), .expand(1)), fixed([false, true, false]))
        XCTAssertEqual(reduce(fixed([true, false, false]), .expand(0)), fixed([true, false, false]))
    }

    func testNotCollapsibleCollapseLeavesTheOpenSectionOpen() {
        XCTAssertEqual(reduce(fixed([false, true, false]), .collapse(1)), fixed([false, true, false]))
        XCTAssertEqual(reduce(fixed([false, true, false]), .collapse(2)), fixed([false, true, false]))
    }

    func testNotCollapsibleCollapseAllLeavesTheOpenSectionOpen() {
        XCTAssertEqual(reduce(fixed([false, false, true]), .collapseAll), fixed([false, false, true]))
        XCTAssertEqual(reduce(fixed([false, false, false]), .collapseAll), fixed([false, false, false]))
    }
}
