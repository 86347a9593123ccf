import TrellisCore
import XCTest

/// Request `expanded`: a list of ids, which the API maps to indices.
final class SectionsStateTests: XCTestCase {
    func testInitFromIndicesIgnoresOrderAndRepetition() {
        let state = SectionsState(count: 4, expanded: [3, 1, 3])
        XCTAssertEqual(state, SectionsState(expanded: [false, true, false, true], mode: .multiple, collapsible: true))
        XCTAssertEqual(state.count, 4)
        XCTAssertEqual(state.expandedIndices, [1, 3])
    }

    func testDefaultsAreMultipleCollapsibleAndNothingOpen() {
        let state = SectionsState(count: 2)
        XCTAssertEqual(state.mode, .multiple)
        XCTAssertTrue(state.collapsible)
        XCTAssertEqual(state.expanded, [false, false])
        XCTAssertEqual(state.expandedIndices, [])
    }

    func testConfigurationIsPartOfEquality() {
        XCTAssertNotEqual(SectionsState(count: 1, mode: .single), SectionsState(count: 1, mode: .multiple))
        XCTAssertNotEqual(SectionsState(count: 1, collapsible: false), SectionsState(count: 1, collapsible: true))
    }

    func testActionSection() {
        XCTAssertEqual(SectionsAction.toggle(4).section, 4)
        XCTAssertEqual(SectionsAction.expand(1).section, 1)
        XCTAssertEqual(SectionsAction.collapse(0).section, 0)
        XCTAssertNil(SectionsAction.expandAll.section)
        XCTAssertNil(SectionsAction.collapseAll.section)
    }
}
