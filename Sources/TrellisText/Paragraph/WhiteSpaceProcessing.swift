/// CSS Text 3's white space processing, phase I (collapsing and transformation), as Blink's inline items builder
/// does it for a text alone in its block.
enum WhiteSpaceProcessing {
    static let space: UInt32 = 0x20, tab: UInt32 = 0x09, lineFeed: UInt32 = 0x0A, carriageReturn: UInt32 = 0x0D
    static let zeroWidthSpace: UInt32 = 0x200B

    /// A preserved tab, line feed or carriage return (each one a control item of its own in Blink: never shaped).
    static func isControl(_ scalar: UInt32) -> Bool { scalar < 0x20 }

    /// Whether collapsing leaves `original` as it is.
    static func isCollapsed(_ original: [UInt32]) -> Bool {
        guard let first = original.first, let last = original.last else { return true }
        guard first != space && last != space else { return false }
        // Most scalars are past U+0020: one comparison each.
        return original.withUnsafeBufferPointer { original in
            var previous: UInt32 = 0
            for scalar in original {
                if scalar <= space
                    && (scalar == tab || scalar == lineFeed || scalar == carriageReturn || (scalar == space && previous == space))
                {
                    return false
                }
                previous = scalar
            }
            return true
        }
    }

    /// The text as laid out, appended to `scalars`, and each kept scalar's UTF-16 offset in the text as sent to `utf16`
    /// (then the text's UTF-16 length).
    ///
    /// Rule: where white space collapses (`normal`, `nowrap`, `pre-line`), a run of spaces, tabs, carriage returns
    /// (and line feeds, unless they are kept) becomes one space, its first character's; a run at the paragraph's
    /// start, after a kept line feed or before one is removed, and so is a run with a line feed beside a zero-width
    /// space (the segment break transformation rules); a space left at the paragraph's end is removed. Kept line
    /// feeds (`pre-line`) and everything in `pre`, `pre-wrap` and `break-spaces` stay as they are.
    static func process(_ original: [UInt32], _ whiteSpace: WhiteSpace, scalars: inout [UInt32], utf16: inout [Int32]) {
        var offset: Int32 = 0
        // A text with nothing to collapse (no tab, carriage return or line feed, no space at either end or beside
        // another) stays as it is, as where white space is kept.
        guard whiteSpace.collapsesSpaces && !isCollapsed(original) else {
            scalars.append(contentsOf: original)
            // Each offset written into room made at once (appending each cost several times the writing).
            let first = utf16.count
            utf16.append(contentsOf: repeatElement(0, count: original.count + 1))
            utf16.withUnsafeMutableBufferPointer { utf16 in
                original.withUnsafeBufferPointer { original in
                    for k in 0..<original.count {
                        utf16[first + k] = offset
                        offset += original[k] >= 0x10000 ? 2 : 1
                    }
                    utf16[first + original.count] = offset
                }
            }
            return
        }
        let keepsLineFeeds = whiteSpace.preservesBreaks
        func collapsible(_ scalar: UInt32) -> Bool {
            scalar == space || scalar == tab || scalar == carriageReturn || (scalar == lineFeed && !keepsLineFeeds)
        }
        let count = original.count
        var i = 0
        while i < count {
            let scalar = original[i]
            guard collapsible(scalar) else {
                scalars.append(scalar)
                utf16.append(offset)
                offset += scalar >= 0x10000 ? 2 : 1
                i += 1
                continue
            }
            let runOffset = offset
            var hasLineFeed = false
            while i < count && collapsible(original[i]) {
                hasLineFeed = hasLineFeed || original[i] == lineFeed
                offset += 1
                i += 1
            }
            let before = scalars.last
            let after = i < count ? original[i] : nil
            if before == nil || before == lineFeed || after == lineFeed { continue }
            if hasLineFeed && (before == zeroWidthSpace || after == zeroWidthSpace) { continue }
            scalars.append(space)
            utf16.append(runOffset)
        }
        if scalars.last == space {
            scalars.removeLast()
            utf16.removeLast()
        }
        utf16.append(offset)
    }
}
