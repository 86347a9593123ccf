/// A recipe's template: a string that starts with "=" is an expression; {"$for": NAME, "count": T, "item": T}
/// is a list of `count` items with NAME = 0, 1, ... (with "join": SEP, one string of the items joined); anything
/// else is itself, its members and elements expanded.
indirect enum SampleTemplate: Sendable {
    case literal(SampleValue)
    case expression(SampleExpression)
    case each(name: String, count: SampleTemplate, item: SampleTemplate, join: String?)
    case object([(key: String, value: SampleTemplate)])
    case array([SampleTemplate])

    init(_ value: SampleValue) throws(SampleError) {
        switch value {
        case .string(let text) where text.hasPrefix("="):
            self = .expression(try SampleExpression.parse(String(text.dropFirst())))
        case .object(let members) where members.contains(where: { $0.key == "$for" }):
            guard let name = value["$for"]?.string, let count = value["count"], let item = value["item"],
                  members.allSatisfy({ ["$for", "count", "item", "join"].contains($0.key) })
            else { throw SampleError("a $for has a name, count, item and join") }
            var join: String?
            if let separator = value["join"] {
                guard let text = separator.string else { throw SampleError("a $for's join is a string") }
                join = text
            }
            self = .each(name: name, count: try SampleTemplate(count), item: try SampleTemplate(item), join: join)
        case .object(let members):
            self = .object(try members.map { (member) throws(SampleError) in (member.key, try SampleTemplate(member.value)) })
        case .array(let elements):
            self = .array(try elements.map { (element) throws(SampleError) in try SampleTemplate(element) })
        default:
            self = .literal(value)
        }
    }

    func expand(_ environment: SampleEnvironment) throws(SampleError) -> SampleValue {
        switch self {
        case .literal(let value): return value
        case .expression(let expression): return try expression.evaluate(environment)
        case .object(let members):
            return .object(try members.map { (member) throws(SampleError) in .init(member.key, try member.value.expand(environment)) })
        case .array(let elements):
            return .array(try elements.map { (element) throws(SampleError) in try element.expand(environment) })
        case .each(let name, let count, let item, let join):
            guard case .int(let n) = try count.expand(environment), n >= 0 else {
                throw SampleError("a $for's count is an integer ≥ 0")
            }
            let saved = environment.variables[name]
            defer { environment.variables[name] = saved }
            var items: [SampleValue] = []
            items.reserveCapacity(n)
            for i in 0..<n {
                environment.variables[name] = .int(i)
                items.append(try item.expand(environment))
            }
            guard let join else { return .array(items) }
            var parts: [String] = []
            for item in items {
                guard case .string(let text) = item else { throw SampleError("a joined $for's items are strings") }
                parts.append(text)
            }
            return .string(parts.joined(separator: join))
        }
    }
}

/// What a recipe's expressions see: size, salt, paths, the lets and the $for variables; the samples, for `normal`.
final class SampleEnvironment {
    var variables: [String: SampleValue]
    let salt: Int
    let samples: SampleSet

    init(samples: SampleSet, size: Int, salt: Int) {
        self.samples = samples
        self.salt = salt
        variables = ["size": .int(size), "salt": .int(salt), "paths": .array(samples.paths.map { .string($0) })]
    }
}
