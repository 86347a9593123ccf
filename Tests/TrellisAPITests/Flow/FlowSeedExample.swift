/// The seed's tags (Swift, SwiftUI, UIKit, Xcode, Apple, iOS, iPad), 36 high, in 300 with spacing 4.
enum FlowSeedExample {
    /// Widths a 15 px system font gives these labels plus 16 px of padding on each side.
    static let request = #"""
        {"containerWidth":300,"horizontalSpacing":4,"verticalSpacing":4,"items":[
          {"id":"swift","width":62,"height":36},{"id":"swiftui","width":84,"height":36},
          {"id":"uikit","width":66,"height":36},{"id":"xcode","width":68,"height":36},
          {"id":"apple","width":66,"height":36},{"id":"ios","width":50,"height":36},
          {"id":"ipad","width":56,"height":36}]}
        """#

    /// Cells 70, 92, 74 | 76, 74, 58, 64: 236 + 76 > 300 wraps Xcode; rows are 44 high (36 + 2 × 4).
    static let response = #"{"items":["#
        + #"{"id":"swift","index":0,"row":0,"x":4,"y":4,"width":62,"height":36},"#
        + #"{"id":"swiftui","index":1,"row":0,"x":74,"y":4,"width":84,"height":36},"#
        + #"{"id":"uikit","index":2,"row":0,"x":166,"y":4,"width":66,"height":36},"#
        + #"{"id":"xcode","index":3,"row":1,"x":4,"y":48,"width":68,"height":36},"#
        + #"{"id":"apple","index":4,"row":1,"x":80,"y":48,"width":66,"height":36},"#
        + #"{"id":"ios","index":5,"row":1,"x":154,"y":48,"width":50,"height":36},"#
        + #"{"id":"ipad","index":6,"row":1,"x":212,"y":48,"width":56,"height":36}],"#
        + #""rows":[{"y":0,"height":44,"width":236,"start":0,"count":3},"#
        + #"{"y":44,"height":44,"width":272,"start":3,"count":4}],"#
        + #""size":{"width":300,"height":88},"hiddenCount":0}"#
}
