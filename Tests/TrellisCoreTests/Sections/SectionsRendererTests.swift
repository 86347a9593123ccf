import TrellisCore
import XCTest

/// Per-section view state, `expanded` in section order, `changed` since the request.
final class SectionsRendererTests: XCTestCase {
    private let open = SectionViewState(expanded: true, headerDisabled: false, icon: .chevronUp, showDivider: false)
    private let closed = SectionViewState(expanded: false, headerDisabled: false, icon: .chevronDown, showDivider: true)
    private let openLocked = SectionViewState(expanded: true, headerDisabled: true, icon: .chevronUp, showDivider: false)

    /// The seed's example: 食べ物 open, toggle 飲み物, both open.
    func testSeedExample() {
        let ids = ["食べ物", "飲み物"]
        let initial = SectionsState(count: ids.count, expanded: [ids.firstIndex(of: "食べ物")!])
        let final = SectionsReducer.reduce(initial, .toggle(ids.firstIndex(of: "飲み物")!))

        XCTAssertEqual(final, SectionsState(expanded: [true, true], mode: .multiple, collapsible: true))
        let view = SectionsRenderer.render(final, initial: initial)
        XCTAssertEqual(view, SectionsOutput(expanded: [0, 1], changed: [1], sections: [open, open]))
        XCTAssertEqual(view.expanded.map { ids[$0] }, ["食べ物", "飲み物"])
        XCTAssertEqual(view.changed.map { ids[$0] }, ["飲み物"])
    }

    func testSeedExampleTogglingTheOpenSectionClosesIt() {
        let initial = SectionsState(count: 2, expanded: [0])
        let final = SectionsReducer.reduce(initial, .toggle(0))

        XCTAssertEqual(final, SectionsState(expanded: [false, false]))
        XCTAssertEqual(
            SectionsRenderer.render(final, initial: initial),
            SectionsOutput(expanded: [], changed: [0], sections: [closed, closed])
        )
    }

    func testRenderOnlyReportsNothingChanged() {
        let state = SectionsState(expanded: [false, true, true])
        XCTAssertEqual(
            SectionsRenderer.render(state, initial: state),
            SectionsOutput(expanded: [1, 2], changed: [], sections: [closed, open, open])
        )
    }

    func testChangedListsOpenedAndClosedSectionsInSectionOrder() {
        let initial = SectionsState(expanded: [false, false, true, false], mode: .single)
        let final = SectionsReducer.reduce(initial, .expand(0))
        XCTAssertEqual(
            SectionsRenderer.render(final, initial: initial),
            SectionsOutput(expanded: [0], changed: [0, 2], sections: [open, closed, closed, closed])
        )
    }

    func testChangedIsRelativeToTheRequestNotToTheLastStep() {
        let initial = SectionsState(expanded: [true, false])
        let final = SectionsReducer.reduce(initial, [.toggle(0), .toggle(1), .toggle(0)])
        XCTAssertEqual(
            SectionsRenderer.render(final, initial: initial),
            SectionsOutput(expanded: [0, 1], changed: [1], sections: [open, open])
        )
    }

    func testHeaderDisabledOnlyOnTheOpenSectionOfANonCollapsibleAccordion() {
        let locked = SectionsState(expanded: [false, true, false], mode: .single, collapsible: false)
        XCTAssertEqual(
            SectionsRenderer.render(locked, initial: locked),
            SectionsOutput(expanded: [1], changed: [], sections: [closed, openLocked, closed])
        )

        let collapsible = SectionsState(expanded: [false, true, false], mode: .single, collapsible: true)
        XCTAssertEqual(
            SectionsRenderer.render(collapsible, initial: collapsible),
            SectionsOutput(expanded: [1], changed: [], sections: [closed, open, closed])
        )

        let multiple = SectionsState(expanded: [true, true, false], mode: .multiple, collapsible: false)
        XCTAssertEqual(
            SectionsRenderer.render(multiple, initial: multiple),
            SectionsOutput(expanded: [0, 1], changed: [], sections: [open, open, closed])
        )
    }

    func testNoSections() {
        let state = SectionsState(count: 0)
        XCTAssertEqual(
            SectionsRenderer.render(state, initial: state),
            SectionsOutput(expanded: [], changed: [], sections: [])
        )
    }
}
