import Glibc
import TrellisAPI
import TrellisText

/// The font-bytes target: arbitrary bytes as a font file, read as HarfBuzz reads OTS's output, so the fuzzer
/// reaches what Trellis itself parses in a face (the shim's OS/2, hhea, CBLC/CBDT readers, fvar's axes and named
/// instances through HarfBuzz) and shapes with it: every face (at most `StoredFont.maxFaces`), at its default and
/// at each axis's extreme, with a feature turned off, measuring a mixed-script sample and laying it out in lines.
/// A crash, a hang or an input past a second is a finding.
enum FontFuzz {
    static let name = "font-bytes"

    /// Texts in the seeds' characters (a text with a character the face lacks is refused before it is shaped).
    static let samples = ["Hello", "fi ffl", "AV", "Hello fi", "שלום", "لا", "🎉", "Hello, World! 123 — Ωμέγα Привет שלום مرحبا 東京 🎉"]

    /// The number of texts measured (for the replayer's line).
    @discardableResult
    static func run(_ data: UnsafeRawBufferPointer) -> Int {
        let started = ContinuousClock.now
        defer {
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            if seconds > Fuzz.maxSeconds { Fuzz.fail("\(data.count) font bytes took \(seconds) s (more than \(Fuzz.maxSeconds) s)") }
        }
        _ = FontFormat.sniff(data)
        guard data.count > 0, let file = FontFile(copying: data) else { return 0 }
        var measured = 0
        for index in 0..<min(file.faceCount, StoredFont.maxFaces) {
            guard let face = FontFace(file: file, index: index) else { continue }
            _ = face.namedInstances()
            _ = face.lineMetrics(size: 300)
            let settings = [
                FaceSettings.plain,
                FaceSettings(
                    variations: face.axes.map { FontSetting($0.tag, $0.maximum) }, features: [FontSetting(FontTag.weight, 0)],
                    unicodeRange: UnicodeRangeSet([0x20...0x7E])),
                FaceSettings(variations: face.axes.map { FontSetting($0.tag, $0.minimum) }),
            ]
            for setting in settings {
                guard let font = TextFont(faces: [face], settings: [setting], size: 17.25) else { continue }
                let measurer = TextMeasurer(font: font)
                let shaper = ParagraphShaper(font: font)
                for text in samples {
                    if case .success = measurer.width(of: text) { measured += 1 }
                    if case .success(let paragraph) = shaper.shape(text + " " + text, whiteSpace: .normal) {
                        _ = shaper.layout(paragraph, width: 20, style: ParagraphStyle(maxLines: 2, textOverflow: .ellipsis))
                    }
                }
            }
        }
        return measured
    }
}
