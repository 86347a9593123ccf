import TrellisText

// The paragraph layout's wire names (`whiteSpace`, `wordBreak`, `overflowWrap`, `textOverflow`): CSS's keywords.

extension WhiteSpace: WireNamed {
    var wireName: String {
        switch self {
        case .normal: "normal"
        case .preWrap: "pre-wrap"
        case .nowrap: "nowrap"
        case .pre: "pre"
        case .preLine: "pre-line"
        case .breakSpaces: "break-spaces"
        }
    }
}

extension WordBreak: WireNamed {
    var wireName: String {
        switch self {
        case .normal: "normal"
        case .breakAll: "break-all"
        case .keepAll: "keep-all"
        }
    }
}

extension OverflowWrap: WireNamed {
    var wireName: String {
        switch self {
        case .normal: "normal"
        case .anywhere: "anywhere"
        case .breakWord: "break-word"
        }
    }
}

extension TextOverflow: WireNamed {
    var wireName: String {
        switch self {
        case .clip: "clip"
        case .ellipsis: "ellipsis"
        }
    }
}

extension TextAlign: WireNamed {
    var wireName: String {
        switch self {
        case .start: "start"
        case .end: "end"
        case .left: "left"
        case .right: "right"
        case .center: "center"
        case .justify: "justify"
        }
    }
}

extension TextAlignLast: WireNamed {
    var wireName: String {
        switch self {
        case .auto: "auto"
        case .start: "start"
        case .end: "end"
        case .left: "left"
        case .right: "right"
        case .center: "center"
        case .justify: "justify"
        }
    }
}

extension Hyphens: WireNamed {
    var wireName: String {
        switch self {
        case .manual: "manual"
        case .none: "none"
        }
    }
}

extension TextWrap: WireNamed {
    var wireName: String {
        switch self {
        case .wrap: "wrap"
        case .balance: "balance"
        case .pretty: "pretty"
        case .stable: "stable"
        }
    }
}
