import Foundation
import TrellisAPI
import TrellisTestSupport
import XCTest

/// Thousands of random requests through the router, whole body against the reference model.
final class SectionsToggleRandomizedTests: XCTestCase {
    private typealias Model = SectionsScenario.Model

    /// Replay another run with `SECTIONS_SEED=<n> swift test --filter SectionsToggleRandomizedTests`.
    private var seed: UInt64 {
        ProcessInfo.processInfo.environment["SECTIONS_SEED"].flatMap { UInt64($0) } ?? 0x5EC7_A915
    }

    private let requestCount = 3_000

    /// Item values whose compact JSON text is already the form the service writes back.
    private static let itemTexts = [
        #""明太子パスタ""#, #""ルイボスティー""#, #""🍰 & \"quotes\"""#, #""line\nbreak\\""#, "0", "-7", "9007199254740993",
        "2.5", "-0.125", "true", "false", "null", "[]", "{}", #"{"name":"コーラ","price":150}"#, #"[1,[2,{"k":null}]]"#,
    ]

    func testRandomRequestsAgreeWithTheReferenceModel() {
        let service = TrellisService()
        var generator = SectionsScenarioGenerator(seed: seed)
        var rng = SplitMix64(seed: seed ^ 0xA5A5)
        var seen: Set<String> = []

        for number in 0..<requestCount {
            let scenario = generator.next()
            // Some ids go over the wire as integers; a pool index gives each a distinct one.
            let integerIDs = Bool.random(using: &rng)
            let encode: [String: String] = Dictionary(uniqueKeysWithValues: SectionsScenarioGenerator.idPool.enumerated().map { i, id in
                (id, integerIDs && i % 2 == 1 ? String(i * 37 - 150) : SectionsTestJSON.string(id))
            })
            let items: [String: String?] = Dictionary(uniqueKeysWithValues: scenario.sections.map { id in
                let count = Int.random(in: 0...3, using: &rng)
                let list = (0..<count).map { _ in Self.itemTexts.randomElement(using: &rng)! }
                return (id, Int.random(in: 0..<5, using: &rng) == 0 ? nil : "[" + list.joined(separator: ",") + "]")
            })

            let request = requestJSON(scenario, encode: encode, items: items, rng: &rng)
            var model = scenario.model
            for action in scenario.actions {
                model.apply(action)
            }
            let expected = expectedJSON(model, initialOpen: Set(scenario.expanded), encode: encode, items: items)

            let response = call(service, "POST", SectionsTestJSON.path, json: request)
            guard response.status == 200, response.body == Array(expected.utf8) else {
                XCTFail("seed \(seed), request \(number): \(request)\n  got:      \(response.status) \(response.text)\n  expected: \(expected)")
                return
            }
            seen.insert("\(scenario.mode.rawValue) collapsible:\(scenario.collapsible) integers:\(integerIDs)")
        }
        // Guards against a generator that stops covering a configuration.
        XCTAssertEqual(seen.count, 8, "\(seen.sorted())")
    }

    /// The scenario as a client could send it: optional members sometimes omitted, one toggle sometimes as `toggle`.
    private func requestJSON(
        _ scenario: SectionsScenario, encode: [String: String], items: [String: String?], rng: inout SplitMix64
    ) -> String {
        var members: [String] = []
        let sections = scenario.sections.map { id in
            items[id]!.map { #"{"id":\#(encode[id]!),"items":\#($0)}"# } ?? #"{"id":\#(encode[id]!)}"#
        }
        members.append(#""sections":[\#(sections.joined(separator: ","))]"#)

        var expanded = scenario.expanded
        // Decision: repeated ids in `expanded` are harmless.
        if let repeated = expanded.randomElement(using: &rng), Bool.random(using: &rng) {
            expanded.insert(repeated, at: Int.random(in: 0...expanded.count, using: &rng))
        }
        if !expanded.isEmpty || Bool.random(using: &rng) {
            members.append(#""expanded":[\#(expanded.map { encode[$0]! }.joined(separator: ","))]"#)
        }
        if scenario.mode == .single || Bool.random(using: &rng) {
            members.append(#""mode":"\#(scenario.mode.rawValue)""#)
        }
        if !scenario.collapsible || Bool.random(using: &rng) {
            members.append(#""collapsible":\#(scenario.collapsible)"#)
        }
        if scenario.actions.count == 1, case .toggle(let id) = scenario.actions[0], Bool.random(using: &rng) {
            members.append(#""toggle":\#(encode[id]!)"#)
        } else if !scenario.actions.isEmpty || Bool.random(using: &rng) {
            let actions = scenario.actions.map { action in
                action.section.map { #"{"type":"\#(action.type)","section":\#(encode[$0]!)}"# } ?? #"{"type":"\#(action.type)"}"#
            }
            members.append(#""actions":[\#(actions.joined(separator: ","))]"#)
        }
        members.shuffle(using: &rng)
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The 200 answer, written from the reference model.
    private func expectedJSON(_ model: Model, initialOpen: Set<String>, encode: [String: String], items: [String: String?]) -> String {
        let sections = model.sections.map { id in
            let open = model.open.contains(id)
            let list = items[id]! ?? "[]"
            let count = items[id]!.map { itemCount($0) } ?? 0
            return #"{"id":\#(encode[id]!),"expanded":\#(open),"headerDisabled":\#(model.headerDisabled(id)),"icon":"\#(model.icon(id))","showDivider":\#(model.showDivider(id)),"items":\#(open ? list : "[]"),"itemCount":\#(count)}"#
        }
        return #"{"expanded":[\#(model.expandedInOrder.map { encode[$0]! }.joined(separator: ","))],"changed":[\#(model.changed(since: initialOpen).map { encode[$0]! }.joined(separator: ","))],"sections":[\#(sections.joined(separator: ","))]}"#
    }

    private func itemCount(_ list: String) -> Int {
        (try? JSONSerialization.jsonObject(with: Data(list.utf8), options: [.fragmentsAllowed]) as? [Any])?.count ?? -1
    }
}
