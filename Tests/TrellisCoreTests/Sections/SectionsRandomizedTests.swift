import Foundation
import TrellisCore
import TrellisTestSupport
import XCTest

/// Random action sequences against the reference model, the whole state after every step.
final class SectionsRandomizedTests: XCTestCase {
    private typealias Model = SectionsScenario.Model

    /// Replay another run with `SECTIONS_SEED=<n> swift test --filter SectionsRandomizedTests`.
    private var seed: UInt64 {
        ProcessInfo.processInfo.environment["SECTIONS_SEED"].flatMap { UInt64($0) } ?? 0x5EC7_1045
    }

    private let scenarioCount = 5_000

    func testReducerAndRendererAgreeWithTheReferenceModel() {
        var generator = SectionsScenarioGenerator(seed: seed)
        var coverage: [String: (steps: Int, changedState: Int)] = [:]

        for number in 0..<scenarioCount {
            let scenario = generator.next()
            let context = "seed \(seed), scenario \(number): \(scenario)"
            let index = Dictionary(uniqueKeysWithValues: scenario.sections.enumerated().map { ($1, $0) })
            var model = scenario.model
            let initial = coreState(of: model, index: index)
            var state = initial

            for (step, action) in scenario.actions.enumerated() {
                let before = model
                model.apply(action)
                state = SectionsReducer.reduce(state, coreAction(action, index: index))

                guard state == coreState(of: model, index: index),
                      SectionsRenderer.render(state, initial: initial) == expectedView(of: model, initialOpen: Set(scenario.expanded), index: index)
                else {
                    XCTFail("step \(step) (\(action)): core \(state) ≠ model \(model.open.sorted()); \(context)")
                    break
                }

                let key = "\(model.mode.rawValue) collapsible:\(model.collapsible) \(action.type)"
                coverage[key, default: (0, 0)].steps += 1
                coverage[key, default: (0, 0)].changedState += before == model ? 0 : 1
            }
        }

        // Guards against a generator that silently stops exercising a rule.
        for mode in Model.Mode.allCases {
            for collapsible in [true, false] {
                for type in ["toggle", "expand", "collapse", "expandAll", "collapseAll"] {
                    let key = "\(mode.rawValue) collapsible:\(collapsible) \(type)"
                    let seen = coverage[key] ?? (0, 0)
                    if mode == .single && type == "expandAll" {
                        XCTAssertEqual(seen.steps, 0, "generator produced expandAll in single mode (422 at the API)")
                    } else {
                        XCTAssertGreaterThan(seen.steps, 100, key)
                        let canChange = !(mode == .single && !collapsible && type == "collapseAll")
                            && !(mode == .single && !collapsible && type == "collapse")
                        if canChange {
                            XCTAssertGreaterThan(seen.changedState, 10, "\(key) never changed the state")
                        } else {
                            XCTAssertEqual(seen.changedState, 0, "\(key) changed the state")
                        }
                    }
                }
            }
        }
    }

    /// The reference model and reducer both hold the single-mode invariant (at most one open).
    func testSingleModeNeverHasMoreThanOneOpenSection() {
        var generator = SectionsScenarioGenerator(seed: seed &+ 1)
        for _ in 0..<1_000 {
            let scenario = generator.next()
            guard scenario.mode == .single else { continue }
            let index = Dictionary(uniqueKeysWithValues: scenario.sections.enumerated().map { ($1, $0) })
            var state = coreState(of: scenario.model, index: index)
            for action in scenario.actions {
                state = SectionsReducer.reduce(state, coreAction(action, index: index))
                XCTAssertLessThanOrEqual(state.expandedIndices.count, 1, "\(scenario)")
            }
        }
    }

    // The API layer's job, done here by hand: ids to dense indices.

    private func coreState(of model: Model, index: [String: Int]) -> SectionsState {
        SectionsState(
            count: model.sections.count,
            expanded: model.open.map { index[$0]! },
            mode: model.mode == .single ? .single : .multiple,
            collapsible: model.collapsible
        )
    }

    private func coreAction(_ action: Model.Action, index: [String: Int]) -> SectionsAction {
        switch action {
        case .toggle(let id): .toggle(index[id]!)
        case .expand(let id): .expand(index[id]!)
        case .collapse(let id): .collapse(index[id]!)
        case .expandAll: .expandAll
        case .collapseAll: .collapseAll
        }
    }

    private func expectedView(of model: Model, initialOpen: Set<String>, index: [String: Int]) -> SectionsOutput {
        SectionsOutput(
            expanded: model.expandedInOrder.map { index[$0]! },
            changed: model.changed(since: initialOpen).map { index[$0]! },
            sections: model.sections.map { id in
                SectionViewState(
                    expanded: model.open.contains(id),
                    headerDisabled: model.headerDisabled(id),
                    icon: model.icon(id) == "chevron.up" ? .chevronUp : .chevronDown,
                    showDivider: model.showDivider(id)
                )
            }
        )
    }
}
