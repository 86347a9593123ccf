// JSON micro-benchmark for `make bench`: Trellis's simdjson view and streaming writer against
// Foundation's JSONDecoder/JSONEncoder on the same 1 MiB of flow-layout items.
import Foundation
import TrellisAPI
import TrellisJSON

struct Item: Codable {
    var id: Int
    var width: Double
    var height: Double
}

func median(_ runs: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return times.sorted()[runs / 2]
}

var items: [Item] = []
var text = "["
while text.utf8.count < 1 << 20 {
    let item = Item(id: items.count, width: Double(items.count % 97) + 0.25, height: 36)
    items.append(item)
    text += (items.count > 1 ? "," : "") + #"{"id":\#(item.id),"width":\#(item.width),"height":\#(item.height)}"#
}
text += "]"
let bytes = Array(text.utf8)
let megabytes = Double(bytes.count) / 1e6
let runs = 21
var sink = 0.0

let parse = median(runs) {
    bytes.withUnsafeBytes { raw in
        guard case .success(let document) = JSONDocument.parse(raw, padded: false) else { fatalError() }
        for element in document.root.elements {
            sink += (element.member("width")?.double ?? 0) + (element.member("height")?.double ?? 0)
                + Double(element.member("id")?.int64 ?? 0)
        }
    }
}
let write = median(runs) {
    var json = JSONWriter(capacity: bytes.count)
    json.beginArray()
    for item in items {
        json.beginObject()
        json.key("id"); json.int(item.id)
        json.key("width"); json.number(item.width)
        json.key("height"); json.number(item.height)
        json.endObject()
    }
    json.endArray()
    sink += Double(json.bytes.count)
}
let data = Data(bytes)
let decode = median(runs) {
    sink += Double((try! JSONDecoder().decode([Item].self, from: data)).count)
}
let encode = median(runs) {
    sink += Double((try! JSONEncoder().encode(items)).count)
}
print(String(format: "| simdjson view: parse and read | %.0f |", megabytes / parse))
print(String(format: "| Foundation JSONDecoder | %.0f |", megabytes / decode))
print(String(format: "| JSONWriter | %.0f |", megabytes / write))
print(String(format: "| Foundation JSONEncoder | %.0f |", megabytes / encode))
if sink == 42 { print("") }
