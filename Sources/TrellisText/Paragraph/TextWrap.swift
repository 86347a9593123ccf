/// CSS Text 4 `text-wrap-style` (the lines of a paragraph that wraps): how its breaks are chosen.
public enum TextWrap: Sendable, CaseIterable {
    /// `auto`: each line takes the last break opportunity that fits (greedy fill).
    case wrap
    /// Lines of about equal length (Blink re-breaks paragraphs of up to 6 lines).
    case balance
    /// Greedy, then Blink's score-based re-breaking of a paragraph's last 4 lines when its last line is short.
    case pretty
    /// Greedy: lines do not move as text is edited (Blink lays it out as `auto`).
    case stable
}
