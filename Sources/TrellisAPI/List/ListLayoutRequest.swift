import TrellisCore
import TrellisJSON
import TrellisText

/// A list layout request: `{font, rows, width | widths, paragraphGap?, gap?, scroll?, anchor?, whiteSpace?,
/// wordBreak?, overflowWrap?, maxLines?, textOverflow?, lineHeight?, keep?}`; each row `{key?, texts?, padding?,
/// extraHeight?, minHeight?}`, each text a string or `{text, …its own paragraph properties}`. Or a list kept
/// before: `{list, width | widths, scroll?, anchor?}`.
struct ListLayoutRequest: FeatureRequest {
    var input: ListLayoutInput
    /// Rule for `keep`: true, the list is kept after it is laid out, and the answer names it; its rows' keys, for that.
    var keys: ListRowKeys?
    /// Rule for `list`: the kept list laid out (its id and the body bytes it was sent in), in place of rows.
    var kept: (id: String, bodyBytes: Int)?
    /// Each paragraph's place on the tape (for the pointer of one that cannot be laid out).
    var paragraphValues: [Int32]
    /// The body, whose tape the paragraph values are on.
    var body: JSONValue
    /// Rule for `anchor`: asked for, each layout answers it (null when no row has its key).
    var anchorAsked: Bool
    /// `width` or `widths`, as the request gave them (where a problem with the widths points).
    var widthsValue: JSONValue

    enum Member: Int, JSONMember {
        case font, fontFaces, rows, width, widths, paragraphGap, gap, scroll, anchor
        case whiteSpace, wordBreak, overflowWrap, maxLines, textOverflow, lineHeight
        case textWrap, keep, list
        static let keys = JSONKeys(Member.self)
        /// What a kept list keeps: a request naming one sends none of them.
        static let listMembers: [Member] = [
            .font, .fontFaces, .rows, .paragraphGap, .gap, .whiteSpace, .wordBreak, .overflowWrap, .maxLines, .textOverflow, .lineHeight, .textWrap,
        ]
    }

    enum RowMember: Int, JSONMember {
        case key, texts, padding, extraHeight, minHeight
        static let keys = JSONKeys(RowMember.self)
    }

    enum TextMember: Int, JSONMember {
        case text, whiteSpace, wordBreak, overflowWrap, maxLines, textOverflow, lineHeight
        case textWrap
        static let keys = JSONKeys(TextMember.self)
    }

    enum PaddingMember: Int, JSONMember {
        case top, bottom, leading, trailing
        static let keys = JSONKeys(PaddingMember.self)
    }

    enum ScrollMember: Int, JSONMember {
        case offset, viewportHeight, overscan
        static let keys = JSONKeys(ScrollMember.self)
    }

    enum AnchorMember: Int, JSONMember {
        case key, offset
        static let keys = JSONKeys(AnchorMember.self)
    }

    init?(reading body: JSONValue, _ context: FeatureContext, _ problems: inout Problems) {
        guard body.expectObject(&problems) else { return nil }
        let members = body.fields(Member.self)
        if let list = members.optional(Member.list) {
            self.init(reading: body, list: list, members, context, &problems)
        } else {
            self.init(reading: body, rows: members, context, &problems)
        }
    }

    /// The rows and what they share.
    private init?(reading body: JSONValue, rows members: JSONFields, _ context: FeatureContext, _ problems: inout Problems) {
        let before = problems.count
        let keep = members.optional(Member.keep)?.boolean(&problems) ?? false
        let font = members.required(Member.font, &problems).flatMap {
            TextFontRequest.read($0, faces: members.optional(Member.fontFaces), context, &problems)
        }
        let widths = TextLayoutRequest.readWidths(body, members[Member.width], members[Member.widths], &problems)
        var shared = ListParagraphStyleReader.read(
            whiteSpace: members.optional(Member.whiteSpace), wordBreak: members.optional(Member.wordBreak),
            overflowWrap: members.optional(Member.overflowWrap), maxLines: members.optional(Member.maxLines),
            textOverflow: members.optional(Member.textOverflow), lineHeight: members.optional(Member.lineHeight),
            fontSize: font?.size, over: ParagraphStyle(), &problems)
        ListParagraphStyleReader.readTextWrap(members.optional(Member.textWrap), into: &shared, &problems)
        let paragraphGap = members.optional(Member.paragraphGap)?.number(&problems, ListLimits.lengths) ?? 0
        let gap = members.optional(Member.gap)?.number(&problems, ListLimits.lengths) ?? 0
        let scroll = members.optional(Member.scroll).flatMap { Self.readScroll($0, &problems) }
        let anchor = members.optional(Member.anchor).flatMap { Self.readAnchor($0, &problems) }
        var rows = RowsReader(shared: shared, fontSize: font?.size)
        if keep { rows.keys = ListRowKeys() }
        if let list = members.required(Member.rows, &problems) {
            rows.read(list, anchorKey: anchor?.key, &problems)
        }
        guard problems.count == before, let font else { return nil }
        self.input = ListLayoutInput(
            font: font, styles: rows.styles, paragraphs: rows.paragraphs, paragraphStyles: rows.paragraphStyles, chromes: rows.chromes, rows: rows.rows,
            paragraphGap: paragraphGap, gap: gap, widths: widths, scroll: scroll,
            anchor: rows.anchorIndex.map { ListAnchor(index: $0, offset: anchor?.offset ?? 0) })
        self.paragraphValues = rows.paragraphValues
        self.body = body
        self.anchorAsked = anchor != nil
        self.widthsValue = members[Member.widths] ?? members[Member.width] ?? body
        self.keys = rows.keys
    }

    /// `{list, width | widths, scroll?, anchor?, keep?}`: the list kept under the id `list`, laid out again. An id not
    /// kept here (never, or no longer: the store forgets the oldest lists first, and a restart or another replica
    /// knows none of this one's) is a problem of type `ProblemTypes.listNotKept`: send the rows again.
    private init?(reading body: JSONValue, list: JSONValue, _ members: JSONFields, _ context: FeatureContext, _ problems: inout Problems) {
        let before = problems.count
        for member in Member.listMembers {
            if let sent = members.optional(member) {
                problems.add(at: sent, "is the kept list's: a request that names a list sends only width or widths, scroll and anchor (send the rows again to change it)")
            }
        }
        _ = members.optional(Member.keep)?.boolean(&problems)
        let widths = TextLayoutRequest.readWidths(body, members[Member.width], members[Member.widths], &problems)
        let scroll = members.optional(Member.scroll).flatMap { Self.readScroll($0, &problems) }
        let anchor = members.optional(Member.anchor).flatMap { Self.readAnchor($0, &problems) }
        var found: (id: String, list: KeptList)?
        if let id = list.text(&problems) {
            if let kept = context.listStore.list(id) {
                found = (id, kept)
            } else {
                problems.add(
                    at: list, "names a list that is not kept here (the server keeps lists for a while, forgetting the oldest first): "
                        + "send the rows again, with keep")
                problems.type = ProblemTypes.listNotKept
            }
        }
        guard problems.count == before, let found else { return nil }
        var input = found.list.input
        input.widths = widths
        input.scroll = scroll
        input.anchor = anchor.flatMap { anchor in found.list.keys.firstRow(anchor.key).map { ListAnchor(index: $0, offset: anchor.offset) } }
        self.input = input
        self.paragraphValues = []
        self.body = body
        self.anchorAsked = anchor != nil
        self.widthsValue = members[Member.widths] ?? members[Member.width] ?? body
        self.kept = (found.id, found.list.bodyBytes)
    }

    /// The value of paragraph `index` (for its problem's pointer).
    func paragraphValue(_ index: Int) -> JSONValue {
        index < paragraphValues.count ? body.value(at: Int(paragraphValues[index])) : body
    }

    /// `{offset?, viewportHeight, overscan?}`.
    static func readScroll(_ value: JSONValue, _ problems: inout Problems) -> ListScroll? {
        guard value.expectObject(&problems) else { return nil }
        let members = value.fields(ScrollMember.self)
        let offset = members.optional(ScrollMember.offset).map { $0.number(&problems) } ?? 0
        let viewport = members.required(ScrollMember.viewportHeight, &problems)?.number(&problems, ListLimits.lengths)
        let overscan = members.optional(ScrollMember.overscan).map { $0.integer(&problems, min: 0, max: ListLimits.maxOverscan) } ?? 0
        guard let offset, let viewport, let overscan else { return nil }
        return ListScroll(offset: offset, viewportHeight: viewport, overscan: overscan)
    }

    /// `{key, offset?}`: the key as a row's, the offset any finite number.
    static func readAnchor(_ value: JSONValue, _ problems: inout Problems) -> (key: JSONValue, offset: Double)? {
        guard value.expectObject(&problems) else { return nil }
        let members = value.fields(AnchorMember.self)
        let key = members.required(AnchorMember.key, &problems)
        let valid = key.map { ClientID.isValid($0, &problems) } ?? false
        let offset = members.optional(AnchorMember.offset).map { $0.number(&problems) } ?? 0
        guard let key, valid, let offset else { return nil }
        return (key, offset)
    }
}

/// Reads `rows` into the core's tables: the paragraphs in order with their styles, the distinct styles and
/// chromes, and the anchor's row.
struct RowsReader {
    var styles: [ParagraphStyle]
    var styleIndex: [ListStyleKey: Int32] = [:]
    var chromes: [ListRowChrome] = [.none]
    var chromeIndex: [ListChromeKey: Int32] = [:]
    /// The last row's chrome and its number: a chat's rows mostly have their neighbour's (found without hashing it).
    var lastChrome = (key: ListChromeKey(), number: Int32(0))
    /// The paragraphs' texts, copied from where the parsed body keeps them (no String made for each).
    var paragraphs = ListTexts()
    var paragraphStyles: [Int32] = []
    var paragraphValues: [Int32] = []
    var rows: [ListLayoutRow] = []
    /// Rule for `anchor`: the first row whose key is the anchor's.
    var anchorIndex: Int?
    /// Every row's key, when the list is kept.
    var keys: ListRowKeys?
    let shared: ParagraphStyle
    /// The font's size (a paragraph's lineHeight as a number or percentage resolves at it); nil when the font has a problem.
    let fontSize: Double?

    init(shared: ParagraphStyle, fontSize: Double?) {
        self.shared = shared
        self.fontSize = fontSize
        styles = [shared]
        styleIndex[ListStyleKey(style: shared)] = 0
    }

    mutating func read(_ list: JSONValue, anchorKey: JSONValue?, _ problems: inout Problems) {
        guard let elements = list.array(&problems, maxCount: ListLimits.maxRows) else { return }
        rows.reserveCapacity(list.count)
        paragraphs.reserveCapacity(list.count)
        var tooMany = false
        for (index, row) in elements.enumerated() {
            guard row.expectObject(&problems) else { continue }
            let members = row.fields(ListLayoutRequest.RowMember.self)
            let key = members.optional(ListLayoutRequest.RowMember.key).flatMap { ClientID.isValid($0, &problems) ? $0 : nil }
            if let key, anchorIndex == nil, let anchorKey, Self.sameID(key, anchorKey) { anchorIndex = index }
            keys?.append(key)
            if let texts = members.optional(ListLayoutRequest.RowMember.texts), let elements = texts.array(&problems) {
                for text in elements {
                    guard paragraphs.count < ListLimits.maxParagraphs else {
                        if !tooMany { problems.add(at: text, "is past the most paragraphs a list may have, \(ListLimits.maxParagraphs)") }
                        tooMany = true
                        break
                    }
                    readParagraph(text, &problems)
                }
            }
            let chrome = readChrome(members, &problems)
            rows.append(ListLayoutRow(paragraphEnd: Int32(paragraphs.count), chrome: chrome))
        }
    }

    /// A string, or `{text, …paragraph properties}` over the list's shared ones.
    mutating func readParagraph(_ value: JSONValue, _ problems: inout Problems) {
        typealias Member = ListLayoutRequest.TextMember
        var style: Int32 = 0
        var textValue = value
        if value.kind == .object {
            let members = value.fields(Member.self)
            guard let text = members.required(Member.text, &problems) else { return }
            textValue = text
            var own = ListParagraphStyleReader.read(
                whiteSpace: members.optional(Member.whiteSpace), wordBreak: members.optional(Member.wordBreak),
                overflowWrap: members.optional(Member.overflowWrap), maxLines: members.optional(Member.maxLines),
                textOverflow: members.optional(Member.textOverflow), lineHeight: members.optional(Member.lineHeight),
                fontSize: fontSize, over: shared, &problems)
            ListParagraphStyleReader.readTextWrap(members.optional(Member.textWrap), into: &own, &problems)
            style = styleNumber(own)
        } else if value.kind != .string {
            problems.add(at: value, "must be a string or an object with text")
            return
        }
        guard TextFontRequest.checkText(textValue, &problems) else { return }
        textValue.withStringBytes { paragraphs.append(utf8: $0) }
        paragraphStyles.append(style)
        paragraphValues.append(Int32(truncatingIfNeeded: textValue.index))
    }

    mutating func styleNumber(_ style: ParagraphStyle) -> Int32 {
        let key = ListStyleKey(style: style)
        if let known = styleIndex[key] { return known }
        let number = Int32(styles.count)
        styles.append(style)
        styleIndex[key] = number
        return number
    }

    /// The row's padding, extra height and minimum height, as an index into the distinct chromes.
    mutating func readChrome(_ members: JSONFields, _ problems: inout Problems) -> Int32 {
        typealias Member = ListLayoutRequest.RowMember
        var key = ListChromeKey()
        if let padding = members.optional(Member.padding), padding.expectObject(&problems) {
            let sides = padding.fields(ListLayoutRequest.PaddingMember.self)
            func side(_ member: ListLayoutRequest.PaddingMember) -> Double {
                sides.optional(member)?.number(&problems, ListLimits.lengths) ?? 0
            }
            key.top = side(.top)
            key.bottom = side(.bottom)
            key.leading = side(.leading)
            key.trailing = side(.trailing)
        }
        key.extraHeight = members.optional(Member.extraHeight)?.number(&problems, ListLimits.lengths) ?? 0
        key.minHeight = members.optional(Member.minHeight)?.number(&problems, ListLimits.lengths) ?? 0
        if key == ListChromeKey() { return 0 }
        if key == lastChrome.key { return lastChrome.number }
        if let known = chromeIndex[key] {
            lastChrome = (key, known)
            return known
        }
        let number = Int32(chromes.count)
        chromes.append(ListRowChrome(
            top: key.top, bottom: key.bottom, leading: key.leading, trailing: key.trailing, extraHeight: key.extraHeight,
            minHeight: key.minHeight))
        chromeIndex[key] = number
        lastChrome = (key, number)
        return number
    }

    /// Rule: ids are equal when both are strings of the same UTF-8 bytes or both the same integer.
    static func sameID(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if a.kind == .string || b.kind == .string {
            guard a.kind == .string && b.kind == .string else { return false }
            return a.withStringBytes { x in b.withStringBytes { y in x.count == y.count && sameBytes(x.baseAddress, y.baseAddress, x.count) } }
        }
        return a.int64 == b.int64
    }
}

/// A row's chrome as sent, so that rows with the same one share it.
struct ListChromeKey: Hashable {
    var top = 0.0
    var bottom = 0.0
    var leading = 0.0
    var trailing = 0.0
    var extraHeight = 0.0
    var minHeight = 0.0
}
