import Foundation
import XCTest
@testable import TrellisAPI
import TrellisText
import TrellisTestSupport

/// `fontFaces` in the requests that take `font`: declared faces over stored fonts, matched and set up as Chromium
/// does, every mistake a 422 with its pointer, and a font that is not stored a 422 of its documented type.
final class FontFacesTests: XCTestCase {
    static let library: FontLibrary = {
        let library = FontLibrary()
        for name in ["inter-latin.woff2", "pair.ttc"] {
            let bytes = (try? FontLibraryTests.fixture(name)) ?? []
            _ = bytes.withUnsafeBytes { library.store($0) }
        }
        return library
    }()
    static var inter: String { ((try? FontLibraryTests.id(of: FontLibraryTests.fixture("inter-latin.woff2")))?.description) ?? "" }
    static var pair: String { ((try? FontLibraryTests.id(of: FontLibraryTests.fixture("pair.ttc")))?.description) ?? "" }

    private let service = TrellisService(
        configuration: ServiceConfiguration(context: FeatureContext(fonts: TestFonts.collection, fontLibrary: FontFacesTests.library)))

    private func widths(_ body: String, file: StaticString = #filePath, line: UInt = #line) -> [Double] {
        let response = call(service, "POST", "/v1/text/measure", json: body)
        XCTAssertEqual(response.status, 200, response.text, file: file, line: line)
        return (response.json["texts"] as? [[String: Any]] ?? []).map { ($0["width"] as? NSNumber)?.doubleValue ?? .nan }
    }

    /// What TrellisText measures for the same rule and properties (the fixture tests check those against Chromium).
    private func expected(_ text: String, weight: Double, style: FontStyle = .normal, size: Double = 16) throws -> Double {
        let id = try XCTUnwrap(FontID(Self.inter))
        let face = try XCTUnwrap(Self.library.store.font(id)?.faces.first)
        let rule = FontFaceRule(family: "Inter", face: face, capabilities: SelectionCapabilities(weight: SelectionRange(100, 900)))
        let resolved = try TestFonts.collection.resolve(
            FontFamilyList.parse("Inter").get(), properties: FontProperties(size: size, weight: weight, style: style), declared: [rule]
        ).get()
        let font = try XCTUnwrap(TextFont(faces: resolved.faces, settings: resolved.settings, size: size, primary: resolved.primary))
        return try TextMeasurer(font: font).width(of: text).get()
    }

    func testADeclaredVariableFontMeasuresAtTheRequestedWeight() throws {
        let body = { (weight: Int) in
            #"{"font":{"family":"Inter","size":16,"weight":\#(weight)},"fontFaces":[{"family":"Inter","src":"\#(Self.inter)","weight":"100 900"}],"texts":["Hamburgefonstiv"]}"#
        }
        let light = widths(body(300)), regular = widths(body(450)), bold = widths(body(800))
        XCTAssertEqual(light, [try expected("Hamburgefonstiv", weight: 300)])
        XCTAssertEqual(regular, [try expected("Hamburgefonstiv", weight: 450)])
        XCTAssertEqual(bold, [try expected("Hamburgefonstiv", weight: 800)])
        XCTAssertLessThan(light[0], regular[0])
        XCTAssertLessThan(regular[0], bold[0])
    }

    /// A declaration is remembered with everything it is read from: the same rules spelt the same way are answered
    /// as before, and a rule's descriptor, the family list or the element's properties changed are read anew.
    func testARememberedDeclarationAnswersOnlyTheSameRulesAndProperties() throws {
        func body(_ rule: String, family: String = "Inter", weight: Int = 700, size: Int = 16) -> String {
            #"{"font":{"family":"\#(family)","size":\#(size),"weight":\#(weight)},"fontFaces":[{"family":"Inter","src":"\#(Self.inter)"\#(rule)}],"texts":["Hamburgefonstiv"]}"#
        }
        let variable = widths(body(#","weight":"100 900""#))
        XCTAssertEqual(variable, [try expected("Hamburgefonstiv", weight: 700)])
        XCTAssertEqual(widths(body(#","weight":"100 900""#)), variable)
        XCTAssertEqual(widths(body(#","weight":"100  900""#)), variable)
        // Pinned at 400: wght stays at 400 whatever the request's weight.
        XCTAssertEqual(widths(body(#","weight":"400""#)), [try expected("Hamburgefonstiv", weight: 400)])
        XCTAssertEqual(widths(body(#","weight":"100 900""#, weight: 300)), [try expected("Hamburgefonstiv", weight: 300)])
        XCTAssertEqual(widths(body(#","weight":"100 900""#, size: 32)), [try expected("Hamburgefonstiv", weight: 700, size: 32)])
        XCTAssertEqual(widths(body(#","weight":"100 900","variationSettings":"\"wght\" 400""#)), [try expected("Hamburgefonstiv", weight: 400)])
        // Another family list: DejaVu Sans, installed, shows the text.
        XCTAssertEqual(
            widths(body(#","weight":"100 900""#, family: "DejaVu Sans")),
            widths(#"{"font":{"family":"DejaVu Sans","size":16,"weight":700},"texts":["Hamburgefonstiv"]}"#))
        // Characters outside the rule's range fall back to the installed family after it.
        XCTAssertEqual(
            widths(body(#","weight":"100 900","unicodeRange":"U+0-40""#, family: "Inter, DejaVu Sans")),
            widths(#"{"font":{"family":"DejaVu Sans","size":16,"weight":700},"texts":["Hamburgefonstiv"]}"#))
    }

    /// Rule: an installed variable font is its named instances (Chromium on Linux takes an installed font's instance
    /// from fontconfig): Inter installed measures at 700 as its Bold instance, the declared face at wght 700 does,
    /// and in italic as its Italic instance (slnt -10); between instances the nearest is matched as static faces are.
    func testAnInstalledVariableFontIsItsNamedInstances() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/inter-latin.ttf").path
        let loaded = FontFiles.load([path])
        XCTAssertEqual(loaded.unusable, [])
        XCTAssertGreaterThan(loaded.faces.count, 2)
        let weights = Set(loaded.faces.filter { !$0.isItalic }.map(\.weight))
        XCTAssertTrue([100, 400, 700, 900].allSatisfy(weights.contains), "\(weights.sorted())")
        XCTAssertTrue(loaded.faces.contains { $0.isItalic && $0.weight == 400 })
        let installed = TrellisService(
            configuration: ServiceConfiguration(context: FeatureContext(fonts: FontCollection(faces: loaded.faces), fontLibrary: Self.library)))
        func width(_ weight: Int, _ style: String = "normal") -> Double {
            let response = call(
                installed, "POST", "/v1/text/measure",
                json: #"{"font":{"family":"Inter","size":16,"weight":\#(weight),"style":"\#(style)"},"texts":["Hamburgefonstiv"]}"#)
            XCTAssertEqual(response.status, 200, response.text)
            return ((response.json["texts"] as? [[String: Any]])?.first?["width"] as? NSNumber)?.doubleValue ?? .nan
        }
        XCTAssertEqual(width(400), try expected("Hamburgefonstiv", weight: 400))
        XCTAssertEqual(width(700), try expected("Hamburgefonstiv", weight: 700))
        XCTAssertEqual(width(300), try expected("Hamburgefonstiv", weight: 300))
        XCTAssertEqual(width(650), width(700))
        XCTAssertLessThan(width(400), width(700))
        XCTAssertEqual(width(400, "italic"), try expected("Hamburgefonstiv", weight: 400, style: .italic))
        XCTAssertNotEqual(width(400, "italic"), width(400))
    }

    /// Rule: a declaration whose text passes what one remembered resolution may count is read anew each time (the
    /// same answer), and nothing of it is remembered.
    func testALargeDeclarationIsNotRemembered() throws {
        let range = Array(repeating: "U+0000-007F", count: 256).joined(separator: ",")
        let rule = #"{"family":"Inter","src":"\#(Self.inter)","weight":"100 900","unicodeRange":"\#(range)"}"#
        let rules = Array(repeating: rule, count: 40).joined(separator: ",")
        XCTAssertGreaterThan(rules.utf8.count, FontStore.maxRememberedBytes)
        let remembered = Self.library.store.declaredCount
        let body = #"{"font":{"family":"Inter","size":16,"weight":700},"fontFaces":[\#(rules)],"texts":["Hamburgefonstiv"]}"#
        XCTAssertEqual(widths(body), [try expected("Hamburgefonstiv", weight: 700)])
        XCTAssertEqual(widths(body), [try expected("Hamburgefonstiv", weight: 700)])
        XCTAssertEqual(Self.library.store.declaredCount, remembered)
    }

    func testDeclaredFamiliesShadowInstalledOnesAndFallBackToThem() {
        let installed = widths(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["Swift"]}"#)
        let shadowed = widths(
            #"{"font":{"family":"DejaVu Sans","size":16},"fontFaces":[{"family":"dejavu sans","src":"\#(Self.inter)"}],"texts":["Swift"]}"#)
        XCTAssertNotEqual(installed, shadowed)
        // Inter's subset has no kana: IPAGothic, installed, shows them.
        let mixed = widths(
            #"{"font":{"family":"Inter, IPAGothic","size":16},"fontFaces":[{"family":"Inter","src":"\#(Self.inter)"}],"texts":["Swift","ひらがな"]}"#)
        XCTAssertEqual(mixed.count, 2)
        XCTAssertEqual(mixed[1], widths(#"{"font":{"family":"IPAGothic","size":16},"texts":["ひらがな"]}"#)[0])
    }

    func testSettingsAndTheElementsPropertiesChangeTheShaping() {
        func width(_ font: String, _ rule: String = "") -> Double {
            widths(#"{"font":{"family":"Inter","size":20\#(font)},"fontFaces":[{"family":"Inter","src":"\#(Self.inter)"\#(rule)}],"texts":["office 1111"]}"#).first ?? .nan
        }
        let plain = width("")
        XCTAssertNotEqual(width(#","featureSettings":"\"sups\"""#), plain)
        XCTAssertNotEqual(width(#","featureSettings":"\"tnum\"""#), plain)
        XCTAssertEqual(width(#","variationSettings":"\"wght\" 400""#), plain)
        XCTAssertEqual(width("", #","variationSettings":"\"wght\" 720""#), width(#","weight":720"#))
        // The element's settings win over the rule's, axis by axis.
        XCTAssertEqual(width(#","variationSettings":"\"wght\" 400""#, #","variationSettings":"\"wght\" 720""#), plain)
        XCTAssertEqual(width(#","stretch":"condensed","opticalSizing":"none""#), plain)
    }

    func testAFaceOfACollectionIsChosenByIndex() {
        func width(_ index: Int) -> Double {
            widths(#"{"font":{"family":"Pair","size":16},"fontFaces":[{"family":"Pair","src":"\#(Self.pair)","index":\#(index)}],"texts":["Swift"]}"#).first ?? .nan
        }
        XCTAssertNotEqual(width(0), width(1))
        XCTAssertEqual(
            width(1), widths(#"{"font":{"family":"DejaVu Sans","size":16},"texts":["Swift"]}"#).first)
    }

    func testAFontThatIsNotStoredIsA422OfItsOwnTypeAtItsSrc() {
        let missing = "sha256-" + String(repeating: "ab", count: 32)
        let response = call(
            service, "POST", "/v1/text/measure",
            json: #"{"font":{"family":"Inter","size":16},"fontFaces":[{"family":"Inter","src":"\#(Self.inter)"},{"family":"Inter","src":"\#(missing)"}],"texts":["x"]}"#)
        XCTAssertEqual(response.status, 422, response.text)
        XCTAssertEqual(response.json["type"] as? String, "tag:trellis,2026:font-not-stored")
        let errors = response.json["errors"] as? [[String: String]] ?? []
        XCTAssertEqual(errors.map { $0["pointer"] }, ["/fontFaces/1/src"])
        XCTAssertTrue(errors.first?["detail"]?.contains("PUT /v1/fonts/\(missing)") ?? false, response.text)
        // Other mistakes keep the ordinary type.
        let other = call(service, "POST", "/v1/text/measure", json: #"{"font":{"family":"Inter","size":-1},"texts":["x"]}"#)
        XCTAssertEqual(other.json["type"] as? String, "about:blank")
    }

    func testTheNotStoredProblemPointsIntoABatchEntryAndAFlow() {
        let missing = "sha256-" + String(repeating: "cd", count: 32)
        let flow = #"{"containerWidth":200,"font":{"family":"Inter","size":16},"fontFaces":[{"family":"Inter","src":"\#(missing)"}],"items":[{"text":"Swift"}]}"#
        let alone = call(service, "POST", "/v1/flow/layout", json: flow)
        XCTAssertEqual(alone.status, 422, alone.text)
        XCTAssertEqual((alone.json["errors"] as? [[String: String]])?.map { $0["pointer"] }, ["/fontFaces/0/src"])
        let batch = call(service, "POST", "/v1/batch", json: #"{"requests":[{"path":"/v1/flow/layout","body":\#(flow)}]}"#)
        XCTAssertEqual(batch.status, 200, batch.text)
        let entry = (batch.json["responses"] as? [[String: Any]])?.first
        XCTAssertEqual(entry?["status"] as? Int, 422)
        let body = entry?["body"] as? [String: Any]
        XCTAssertEqual(body?["type"] as? String, "tag:trellis,2026:font-not-stored")
        // An entry is answered as its body alone would be: its pointers lead into that body.
        XCTAssertEqual((body?["errors"] as? [[String: String]])?.first?["pointer"], "/fontFaces/0/src")
    }

    /// A list's rows and an outline's rows with heights take `fontFaces` as the text requests do: their paragraphs are
    /// laid out in the declared font, and a font that is not stored is the same 422 at their own `src`.
    func testListsAndOutlineRowHeightsLayTheirTextOutInDeclaredFaces() {
        let faces = #""fontFaces":[{"family":"Inter","src":"\#(Self.inter)","weight":"100 900"}]"#
        let font = #""font":{"family":"Inter","size":16,"weight":450}"#
        let text = "Trellis lays text out as Chromium does, in the fonts your pages use."
        let layout = call(service, "POST", "/v1/text/layout", json: #"{\#(font),\#(faces),"texts":["\#(text)"],"width":240}"#)
        XCTAssertEqual(layout.status, 200, layout.text)
        let paragraph = ((layout.json["texts"] as? [[String: Any]])?.first?["height"] as? NSNumber)?.doubleValue
        func listHeight(_ body: String) -> Double? {
            let response = call(service, "POST", "/v1/list/layout", json: body)
            XCTAssertEqual(response.status, 200, response.text)
            return ((response.json["layouts"] as? [[String: Any]])?.first?["heights"] as? [NSNumber])?.first?.doubleValue
        }
        let declared = listHeight(#"{\#(font),\#(faces),"width":240,"rows":[{"texts":["\#(text)"]}]}"#)
        XCTAssertNotNil(paragraph)
        XCTAssertEqual(declared, paragraph)
        XCTAssertNotEqual(declared, listHeight(#"{"font":{"family":"DejaVu Sans","size":16},"width":240,"rows":[{"texts":["\#(text)"]}]}"#))
        let outline = call(
            service, "POST", "/v1/outline/rows",
            json: #"{"nodes":[{"id":1,"label":"\#(text)"}],"rowHeights":{\#(font),\#(faces),"width":240}}"#)
        XCTAssertEqual(outline.status, 200, outline.text)
        XCTAssertEqual(((outline.json["rows"] as? [[String: Any]])?.first?["height"] as? NSNumber)?.doubleValue, paragraph)

        let missing = "sha256-" + String(repeating: "9f", count: 32)
        let absent = #""fontFaces":[{"family":"Inter","src":"\#(missing)"}]"#
        for (path, body, pointer) in [
            ("/v1/list/layout", #"{\#(font),\#(absent),"width":240,"rows":[{"texts":["x"]}]}"#, "/fontFaces/0/src"),
            ("/v1/outline/rows", #"{"nodes":[{"id":1,"label":"x"}],"rowHeights":{\#(font),\#(absent),"width":240}}"#, "/rowHeights/fontFaces/0/src"),
        ] {
            let response = call(service, "POST", path, json: body)
            XCTAssertEqual(response.status, 422, response.text)
            XCTAssertEqual(response.json["type"] as? String, ProblemTypes.fontNotStored, path)
            XCTAssertEqual((response.json["errors"] as? [[String: String]])?.map { $0["pointer"] }, [pointer], path)
        }
    }

    func testEveryDescriptorMistakeHasItsPointer() {
        let response = call(
            service, "POST", "/v1/text/measure",
            json: #"{"font":{"family":"Inter","size":16,"stretch":"wide","featureSettings":"liga","variationSettings":"\"wght\"","opticalSizing":"yes"},"fontFaces":[{"family":" ","src":"sha256-XYZ","weight":"heavy","style":"oblique 100deg","stretch":"0%","unicodeRange":"U+110000","featureSettings":"\"toolong\" 1","variationSettings":"\"wght\" x","index":99},{"src":"\#(Self.pair)","family":"P","index":2}],"texts":["x"]}"#)
        XCTAssertEqual(response.status, 422, response.text)
        let pointers = Set((response.json["errors"] as? [[String: String]] ?? []).compactMap { $0["pointer"] })
        XCTAssertEqual(
            pointers,
            ["/font/stretch", "/font/featureSettings", "/font/variationSettings", "/font/opticalSizing", "/fontFaces/0/family",
             "/fontFaces/0/src", "/fontFaces/0/weight", "/fontFaces/0/style", "/fontFaces/0/stretch", "/fontFaces/0/unicodeRange",
             "/fontFaces/0/featureSettings", "/fontFaces/0/variationSettings", "/fontFaces/0/index", "/fontFaces/1/index"])
    }
}
