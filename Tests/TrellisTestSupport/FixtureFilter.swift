import Foundation

/// One Chromium fixture by name: `make fixture NAME=<name>` sets TRELLIS_FIXTURE, and the fixture suites
/// (flows, measurements, flows of labels, paragraphs) then compare only what it names and print each case
/// they compare in full. A name is a fixture's id as its suite's failures spell it: a paragraph `p12` (every
/// layout) or `p12/3` (one layout), a measurement `m40` (its line in measure.jsonl, from 1), a flow of labels
/// `flow 7`, a flow fixture's `name`.
public enum FixtureFilter {
    public static let name: String? = ProcessInfo.processInfo.environment["TRELLIS_FIXTURE"].flatMap { $0.isEmpty ? nil : $0 }

    /// True when one fixture was asked for (the suites' count checks are then off).
    public static var isActive: Bool { name != nil }

    /// Whether the fixture `id` (or its layout `id/layout`) is compared.
    public static func includes(_ id: String, layout: Int? = nil) -> Bool {
        guard let name else { return true }
        if name == id { return true }
        guard let layout else { return name.hasPrefix(id + "/") }
        return name == "\(id)/\(layout)"
    }
}
