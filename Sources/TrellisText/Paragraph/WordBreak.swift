/// CSS `word-break`.
public enum WordBreak: Sendable, CaseIterable {
    case normal
    /// Also break between letters and digits of most scripts (Blink's break-all table over UAX #14 classes).
    case breakAll
    /// No break between letters or digits (CJK words stay whole), except in scripts broken by dictionary.
    case keepAll
}
