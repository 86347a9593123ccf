import Foundation
import TrellisAPI
import TrellisJSON
import TrellisCore
import XCTest
import TrellisTestSupport

/// The seed's request: the iPhone-sized container (390 × 844 pt with its safe area), toggled open.
let drawerSeedRequest = """
    {"isPresented": false, "action": "toggle",
     "container": {"width": 390, "height": 844},
     "drawerWidth": 200, "edge": "leading", "layoutDirection": "ltr",
     "safeAreaInsets": {"top": 47, "leading": 0, "bottom": 34, "trailing": 0},
     "maskOpacity": 0.2,
     "spring": {"response": 0.55, "dampingFraction": 0.825},
     "frameRate": 60}
    """

let drawerService = TrellisService()

/// POSTs a body to /v1/drawer/state through the router.
func postDrawer(_ json: String) -> TestResponse {
    call(drawerService, "POST", "/v1/drawer/state", json: json)
}

/// The body parsed by the service's own simdjson view, so every number is the exact double written (Foundation's parser can be an ulp off).
func exactJSON(_ response: TestResponse) -> [String: Any] {
    response.body.withUnsafeBytes { bytes -> [String: Any] in
        guard case .success(let document) = JSONDocument.parse(bytes, padded: false) else { return [:] }
        return foundationValue(document.root) as? [String: Any] ?? [:]
    }
}

private func foundationValue(_ value: JSONValue) -> Any {
    switch value.kind {
    case .object:
        var object: [String: Any] = [:]
        for (key, member) in value.members { object[key.string!] = foundationValue(member) }
        return object
    case .array: return value.elements.map(foundationValue)
    case .string: return value.string!
    case .integer, .double: return value.double!
    case .bool: return value.bool!
    case .null: return NSNull()
    }
}

func object(_ value: Any?, file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
    guard let object = value as? [String: Any] else {
        XCTFail("not an object: \(String(describing: value))", file: file, line: line)
        return [:]
    }
    return object
}

func number(_ value: Any?) -> Double? {
    value as? Double
}

func frame(_ value: Any?) -> [Double] {
    let rect = object(value)
    return ["x", "y", "width", "height"].map { number(rect[$0]) ?? .nan }
}

/// The errors of a 422 as (pointer, detail) pairs, in order.
func problemPointers(_ response: TestResponse) -> [String] {
    (response.json["errors"] as? [[String: Any]] ?? []).map { $0["pointer"] as? String ?? "?" }
}

/// A CSS `linear()` easing read back from its text: stops (progress, fraction of the duration).
struct ParsedLinearEasing {
    var stops: [(progress: Double, fraction: Double)] = []

    init?(_ css: String) {
        guard css.hasPrefix("linear("), css.hasSuffix(")") else { return nil }
        let parts = css.dropFirst("linear(".count).dropLast().components(separatedBy: ", ")
        for (i, part) in parts.enumerated() {
            let fields = part.split(separator: " ")
            guard let progress = Double(fields[0]) else { return nil }
            if fields.count == 2 {
                guard fields[1].hasSuffix("%"), let percent = Double(fields[1].dropLast()) else { return nil }
                stops.append((progress, percent / 100))
            } else if i == 0 || i == parts.count - 1 {
                stops.append((progress, i == 0 ? 0 : 1))
            } else {
                return nil
            }
        }
    }

    /// The easing's output at a fraction of the duration (CSS linear() interpolation), searching from stop `hint` on.
    func value(at fraction: Double, hint: inout Int) -> Double {
        while hint < stops.count && stops[hint].fraction < fraction { hint += 1 }
        if hint == stops.count { return stops.last!.progress }
        if hint == 0 { return stops[0].progress }
        let a = stops[hint - 1], b = stops[hint]
        return a.progress + (b.progress - a.progress) * (fraction - a.fraction) / (b.fraction - a.fraction)
    }

    /// The largest gap between this easing played over `duration` and p(t), sampled every 0.05 ms.
    func worstDeviation(from motion: DrawerSpringMotion, duration: Double) -> Double {
        let samples = max(1, Int(duration / 0.00005))
        var hint = 0
        var worst = 0.0
        for i in 0...samples {
            let fraction = Double(i) / Double(samples)
            worst = max(worst, abs(value(at: fraction, hint: &hint) - motion.progress(at: duration * fraction)))
        }
        return worst
    }
}

/// `css.duration` ("758ms") in seconds.
func cssSeconds(_ text: String?) -> Double? {
    guard let text, text.hasSuffix("ms"), let ms = Double(text.dropLast(2)) else { return nil }
    return ms / 1000
}
