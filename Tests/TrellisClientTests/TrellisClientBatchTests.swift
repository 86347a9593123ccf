import Foundation
import TrellisClient
import XCTest
import TrellisTestSupport

/// The client's newer calls against the live server: flow labels (font, labelPadding, maxWidth), the overflow
/// chip's label, search's labelKey, and the batch (each answer decoded as its endpoint's, as if sent alone).
final class TrellisClientBatchTests: XCTestCase {
    typealias Client = TrellisClient

    static let font = Client.TextFont(family: "DejaVu Sans, IPAGothic", size: 17)
    static let padding = Client.FlowLabelPadding(top: 8, leading: 16, bottom: 8, trailing: 16)
    static let tags = ["Swift", "SwiftUI", "UIKit", "Xcode", "Apple", "iOS", "iPad"]

    /// docs/clients.md's labelled chips: the seed's tags as text, on one row with a "+N" chip given as a label.
    static let labelled = Client.FlowLayoutRequest(
        containerWidth: 300, items: tags.map { .init(id: .string($0.lowercased()), text: $0) }, horizontalSpacing: 4,
        verticalSpacing: 4, maxRows: 1, overflowIndicator: .init(label: "+{n}"), font: font, labelPadding: padding)

    func testFlowItemsAsTextWithAFontAndLabelPadding() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        var request = Self.labelled
        request.maxRows = nil
        request.overflowIndicator = nil
        let answer = try await server.client().flowLayout(request)
        XCTAssertEqual(answer.items.count, 7)
        XCTAssertEqual(answer.items[0].width, 41.78125 + 32)
        XCTAssertEqual(answer.items[0].height, 36)
        XCTAssertEqual(answer.items[1].x, 85.78125)
        // A label past its maxWidth is cut with an ellipsis: the chip is maxWidth wide.
        let cut = try await server.client().flowLayout(.init(
            containerWidth: 300, items: [.init(text: "A label far too long for its chip", maxWidth: 100)], font: Self.font,
            labelPadding: Self.padding))
        XCTAssertEqual(cut.items[0].width, 100)
        XCTAssertEqual(cut.items[0].truncated, true)
        XCTAssertEqual(cut.items[0].lineCount, 1)
    }

    func testTheOverflowChipsLabelIsMeasured() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let answer = try await server.client().flowLayout(Self.labelled)
        XCTAssertEqual(answer.items.map(\.id), ["swift", "swiftui"])
        XCTAssertEqual(answer.hiddenCount, 5)
        XCTAssertEqual(answer.overflowIndicator, .init(x: 185.015625, y: 4, width: 57.0625, height: 36, count: 5))
    }

    func testSearchReadsLabelsUnderItsLabelKey() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let tree = Client.OutlineTree(nodes: [
            .init(id: "docs", label: "Docs", children: [.init(id: "readme", label: "README.md")]), .init(id: "other", label: "Other"),
        ])
        let search = Client.OutlineSearch(query: "read", labelKey: "title")
        let request = Client.OutlineRowsRequest(tree: tree, search: search)
        let written = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(request)) as? [String: Any])
        let roots = try XCTUnwrap(written["nodes"] as? [[String: Any]])
        XCTAssertEqual(roots[0]["title"] as? String, "Docs")
        XCTAssertNil(roots[0]["label"])
        let rows = try await server.client().outlineRows(request)
        XCTAssertEqual(rows.rows.map(\.id), ["docs", "readme"])
        XCTAssertEqual(rows.rows[1].match, .init(ranges: [[0, 4]]))
        XCTAssertEqual(rows.matchCount, 1)
        let expansion = try await server.client().outlineExpansion(.init(tree: tree, search: search))
        XCTAssertEqual(expansion.matches, [.init(id: "readme", ranges: [[0, 4]])])
    }

    func testABatchAnswersEachEntryAsItsEndpointAlone() async throws {
        let server = try LiveServer(service: TestFonts.configuration)
        let client = server.client()
        let rows = Client.OutlineRowsRequest(tree: TrellisClientTests.exampleTree, selection: "readme", offset: 1, limit: 3)
        let measure = Client.TextMeasureRequest(font: Self.font, texts: Self.tags)
        let sections = Client.SectionsToggleRequest(sections: [.init(id: "a", items: ["x"]), .init(id: "b")], expanded: ["a"], toggle: "b")
        let drawer = Client.DrawerStateRequest(isPresented: false, action: .toggle, container: .init(width: 390, height: 844))
        let invalid = Client.FlowLayoutRequest(containerWidth: -1, items: [])
        let answers = try await client.batch([
            .init(rows), .init(Self.labelled), .init(measure), .init(sections), .init(drawer), .init(invalid),
        ])
        XCTAssertEqual(answers.map(\.status), [200, 200, 200, 200, 200, 422])
        let alone0 = try await client.outlineRows(rows)
        XCTAssertEqual(try answers[0].get(Client.OutlineRowsResponse.self), alone0)
        let alone1 = try await client.flowLayout(Self.labelled)
        XCTAssertEqual(try answers[1].get(Client.FlowLayoutResponse.self), alone1)
        let alone2 = try await client.textMeasure(measure)
        XCTAssertEqual(try answers[2].get(Client.TextMeasureResponse.self), alone2)
        let alone3 = try await client.sectionsToggle(sections)
        XCTAssertEqual(try answers[3].get(Client.SectionsToggleResponse.self), alone3)
        let alone4 = try await client.drawerState(drawer)
        XCTAssertEqual(try answers[4].get(Client.DrawerStateResponse.self), alone4)
        do {
            _ = try answers[5].get(Client.FlowLayoutResponse.self)
            XCTFail("the invalid entry has an answer")
        } catch .problem(let problem) {
            XCTAssertEqual(problem.status, 422)
            XCTAssertEqual(problem.errors.map(\.pointer), ["/containerWidth"])
        }
        // A malformed batch is thrown, with a pointer for each problem.
        do {
            _ = try await client.batch([])
            XCTFail("an empty batch was answered")
        } catch .problem(let problem) {
            XCTAssertEqual(problem.errors.map(\.pointer), ["/requests"])
        }
    }
}
