import TrellisCore
import TrellisText
import XCTest
import TrellisTestSupport

/// `FlowLabels.compute`: a flow whose items and chip may be given as text, each text read through the caller's
/// accessor, measured in the font with the padding, and the flow laid out with every size known.
final class FlowLabelsTests: XCTestCase {
    private let font = TestFonts.font("DejaVu Sans", size: 17)!
    private let padding = FlowLabelPadding(top: 8, leading: 16, bottom: 8, trailing: 16)

    /// The texts of a flow, by reference.
    private let texts = ["Swift", "SwiftUI", "+{n}", "a\u{0009}b", "\u{202A}x"]

    private func text(_ label: FlowLabelText) -> String { texts[Int(label.reference)] }

    private func width(_ text: String) -> Double { (try? TextMeasurer(font: font).width(of: text).get()) ?? .nan }

    /// `FlowLabels.compute`'s answer as written (the output, each item's paragraph asked in order), or its refusal.
    private func compute(
        _ input: FlowLabelsInput, meter: inout WorkMeter
    ) -> Result<(layout: FlowOutput, paragraphs: [Int: ParagraphLayout]), FlowLabelsRefusal> {
        var written: (layout: FlowOutput, paragraphs: [Int: ParagraphLayout])?
        let refusal = FlowLabels.compute(input, text: text, cache: nil, meter: &meter) { output, paragraph in
            var paragraphs: [Int: ParagraphLayout] = [:]
            for item in output.layout.items { paragraphs[item.index] = paragraph(item.index) }
            written = (output.layout, paragraphs)
        }
        if let refusal { return .failure(refusal) }
        guard let written else { return .failure(.stopped) }
        return .success(written)
    }

    /// Sized items keep their sizes and place among the labels; each label's item is its text's width and the line
    /// height plus the padding, so the flow is the core's flow of those sizes.
    func testLabelsAndSizesLayOutAsTheCoresFlowOfTheMeasuredSizes() throws {
        let items: [FlowLabelItem] = [
            .size(FlowItem(width: 30, height: 10)), .text(FlowLabelText(reference: 0)), .size(FlowItem(width: 20, height: 5, breakBefore: true)),
            .text(FlowLabelText(reference: 1), breakBefore: true),
        ]
        var meter = WorkMeter()
        let output = try compute(
            FlowLabelsInput(containerWidth: 300, items: items, font: font, padding: padding, columnGap: 4), meter: &meter
        ).get()
        let height = font.lineMetrics.lineHeight + 16
        let sizes = FlowInput(
            containerWidth: 300,
            items: [
                FlowItem(width: 30, height: 10), FlowItem(width: width("Swift") + 32, height: height),
                FlowItem(width: 20, height: 5, breakBefore: true), FlowItem(width: width("SwiftUI") + 32, height: height, breakBefore: true),
            ],
            columnGap: 4)
        XCTAssertEqual(output.layout, FlowLayout.compute(sizes))
        XCTAssertEqual(output.layout.items.count, 4)
        XCTAssertTrue(output.paragraphs.isEmpty)
        XCTAssertGreaterThan(meter.steps, 0, "every scalar measured is a step")
    }

    /// The chip's label shows the count it hides, measured for that count.
    func testTheChipIsMeasuredForTheCountItShows() throws {
        let items = [FlowLabelItem](repeating: .text(FlowLabelText(reference: 1)), count: 6)
        var meter = WorkMeter()
        let output = try compute(
            FlowLabelsInput(
                containerWidth: 300, items: items, font: font, padding: padding, maxRows: 1,
                overflowIndicator: .text(FlowLabelText(reference: 2))),
            meter: &meter
        ).get()
        let chip = try XCTUnwrap(output.layout.overflowIndicator)
        XCTAssertGreaterThan(chip.count, 0)
        XCTAssertEqual(chip.rect.width, width("+\(chip.count)") + 32)
    }

    /// Every text that cannot be measured is named back by its reference: the items' in order, then the chip's.
    func testEveryUnmeasurableTextIsRefusedItemsFirst() {
        let items: [FlowLabelItem] = [
            .text(FlowLabelText(reference: 4)), .text(FlowLabelText(reference: 0)),
            .text(FlowLabelText(reference: 3), narrowing: FlowLabelNarrowing(maxWidth: 40)),
        ]
        var meter = WorkMeter()
        let result = compute(
            FlowLabelsInput(containerWidth: 300, items: items, font: font, maxRows: 1, overflowIndicator: .text(FlowLabelText(reference: 4))),
            meter: &meter)
        guard case .failure(.unmeasurable(let refused)) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(refused.map(\.text.reference), [4, 3, 4])
        XCTAssertEqual(refused.map(\.refusal), [
            .forbidden(scalar: 0x202A, offset: 0), .forbidden(scalar: 0x09, offset: 1), .forbidden(scalar: 0x202A, offset: 0),
        ])
    }

    /// Once the meter says stop, nothing more is measured and the flow is not laid out.
    func testAStoppedMeterStopsTheFlow() {
        let items = [FlowLabelItem](repeating: .text(FlowLabelText(reference: 1)), count: 100)
        var meter = WorkMeter(checkingEvery: 1) { true }
        let result = compute(FlowLabelsInput(containerWidth: 300, items: items, font: font), meter: &meter)
        XCTAssertEqual(result.map(\.layout), .failure(.stopped))
    }
}
