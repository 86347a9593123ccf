import TrellisCore
import XCTest

/// Rule: actions are applied one after another; the answer is the final state.
final class SectionsSequenceTests: XCTestCase {
    /// Steps `actions` one at a time, checks each whole state, then checks the sequence overload ends in the last one.
    private func assertTrace(
        from initial: SectionsState,
        _ steps: [(SectionsAction, SectionsState)],
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        var state = initial
        for (number, (action, expected)) in steps.enumerated() {
            state = SectionsReducer.reduce(state, action)
            XCTAssertEqual(state, expected, "after step \(number): \(action)", file: file, line: line)
        }
        XCTAssertEqual(SectionsReducer.reduce(initial, steps.map(\.0)), steps.last?.1 ?? initial, file: file, line: line)
    }

    func testEmptySequenceReturnsTheStateUnchanged() {
        let state = SectionsState(expanded: [true, false], mode: .single, collapsible: false)
        XCTAssertEqual(SectionsReducer.reduce(state, [SectionsAction]()), state)
    }

    func testMultipleModeSequence() {
        func m(_ expanded: Bool...) -> SectionsState { SectionsState(expanded: expanded) }
        assertTrace(from: m(false, false, false), [
            (.toggle(0), m(true, false, false)),
            (.toggle(1), m(true, true, false)),
            (.collapse(0), m(false, true, false)),
            (.expandAll, m(true, true, true)),
            (.toggle(2), m(true, true, false)),
            (.collapseAll, m(false, false, false)),
            (.expand(1), m(false, true, false)),
            (.expand(1), m(false, true, false)),
        ])
    }

    func testSingleModeSequence() {
        func s(_ expanded: Bool...) -> SectionsState { SectionsState(expanded: expanded, mode: .single) }
        assertTrace(from: s(false, false, false), [
            (.expand(0), s(true, false, false)),
            (.toggle(2), s(false, false, true)),
            (.toggle(2), s(false, false, false)),
            (.collapse(0), s(false, false, false)),
            (.expand(1), s(false, true, false)),
            (.expandAll, s(false, true, false)),
            (.collapseAll, s(false, false, false)),
            (.toggle(0), s(true, false, false)),
        ])
    }

    func testSingleModeNotCollapsibleSequenceNeverClosesOnceOpen() {
        func f(_ expanded: Bool...) -> SectionsState {
            SectionsState(expanded: expanded, mode: .single, collapsible: false)
        }
        assertTrace(from: f(false, false, false), [
            (.collapseAll, f(false, false, false)),
            (.toggle(1), f(false, true, false)),
            (.toggle(1), f(false, true, false)),
            (.collapse(1), f(false, true, false)),
            (.collapseAll, f(false, true, false)),
            (.expand(0), f(true, false, false)),
            (.toggle(2), f(false, false, true)),
            (.collapse(2), f(false, false, true)),
        ])
    }

    func testSequenceOverloadAcceptsAnySequence() {
        let state = SectionsState(count: 2)
        XCTAssertEqual(SectionsReducer.reduce(state, repeatElement(.toggle(1), count: 3)), SectionsState(expanded: [false, true]))
        XCTAssertEqual(SectionsReducer.reduce(state, repeatElement(.toggle(1), count: 4)), state)
    }
}
