/// An expression in a recipe: Python's syntax and meaning, restricted to what scripts/trellis_samples.py accepts
/// (numbers, 'strings' without backslashes, None, True, False, [lists], names, + - * / // % & | << >>, unary -
/// and not, one comparison, and, or, `a if c else b`, x[i], and calls of `SampleFunctions`).
indirect enum SampleExpression: Sendable {
    case constant(SampleValue)
    case name(String)
    case list([SampleExpression])
    case negate(SampleExpression)
    case not(SampleExpression)
    case binary(String, SampleExpression, SampleExpression)
    case compare(String, SampleExpression, SampleExpression)
    case and(SampleExpression, SampleExpression)
    case or(SampleExpression, SampleExpression)
    case conditional(SampleExpression, if: SampleExpression, else: SampleExpression)
    case index(SampleExpression, SampleExpression)
    case call(String, [SampleExpression])

    /// Parses `source`; throws at the first thing that is not in the language.
    static func parse(_ source: String) throws(SampleError) -> SampleExpression {
        var parser = Parser(tokens: try tokenize(source), source: source)
        let expression = try parser.expression()
        guard parser.peek == .end else { throw parser.error("unexpected \(parser.peek)") }
        return expression
    }

    // MARK: Tokens

    enum Token: Equatable, CustomStringConvertible {
        case number(SampleValue), string(String), name(String), symbol(String), end

        var description: String {
            switch self {
            case .number(let value): (try? value.json(.compact)) ?? "a number"
            case .string(let text): "'\(text)'"
            case .name(let name): name
            case .symbol(let symbol): symbol
            case .end: "the end"
            }
        }
    }

    static let symbols = ["//", "<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "&", "|", "<", ">", "(", ")", "[", "]", ","]

    static func tokenize(_ source: String) throws(SampleError) -> [Token] {
        let scalars = Array(source.unicodeScalars)
        guard !scalars.contains("\\") else { throw SampleError("no backslashes in an expression (use chr): \(source)") }
        var tokens: [Token] = []
        var i = 0
        func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
        func isNameStart(_ c: Unicode.Scalar) -> Bool { c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        while i < scalars.count {
            let c = scalars[i]
            if c == " " || c == "\n" || c == "\t" {
                i += 1
            } else if c == "'" || c == "\"" {
                guard let end = scalars[(i + 1)...].firstIndex(of: c) else { throw SampleError("an unclosed string: \(source)") }
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars[(i + 1)..<end])
                tokens.append(.string(String(text)))
                i = end + 1
            } else if isDigit(c) || (c == "." && i + 1 < scalars.count && isDigit(scalars[i + 1])) {
                var j = i
                var text = ""
                if c == "0", j + 1 < scalars.count, scalars[j + 1] == "x" || scalars[j + 1] == "X" {
                    j += 2
                    while j < scalars.count, scalars[j] == "_" || scalars[j].properties.isASCIIHexDigit {
                        if scalars[j] != "_" { text.unicodeScalars.append(scalars[j]) }
                        j += 1
                    }
                    guard let value = Int(text, radix: 16) else { throw SampleError("a bad number in \(source)") }
                    tokens.append(.number(.int(value)))
                } else {
                    var fraction = false
                    while j < scalars.count {
                        let d = scalars[j]
                        if isDigit(d) || d == "_" {
                            if d != "_" { text.unicodeScalars.append(d) }
                        } else if d == "." || d == "e" || d == "E" {
                            fraction = true
                            text.unicodeScalars.append(d)
                            if d != ".", j + 1 < scalars.count, scalars[j + 1] == "+" || scalars[j + 1] == "-" {
                                j += 1
                                text.unicodeScalars.append(scalars[j])
                            }
                        } else {
                            break
                        }
                        j += 1
                    }
                    if fraction {
                        guard let value = Double(text) else { throw SampleError("a bad number in \(source)") }
                        tokens.append(.number(.double(value)))
                    } else {
                        guard let value = Int(text) else { throw SampleError("a bad number in \(source)") }
                        tokens.append(.number(.int(value)))
                    }
                }
                i = j
            } else if isNameStart(c) {
                var j = i
                var name = ""
                while j < scalars.count, isNameStart(scalars[j]) || isDigit(scalars[j]) {
                    name.unicodeScalars.append(scalars[j])
                    j += 1
                }
                tokens.append(.name(name))
                i = j
            } else if let symbol = symbols.first(where: { symbol in
                let s = Array(symbol.unicodeScalars)
                return i + s.count <= scalars.count && Array(scalars[i..<(i + s.count)]) == s
            }) {
                tokens.append(.symbol(symbol))
                i += symbol.unicodeScalars.count
            } else {
                throw SampleError("\"\(c)\" is not in the samples' expressions: \(source)")
            }
        }
        tokens.append(.end)
        return tokens
    }

    // MARK: Parser (Python's precedence, lowest first)

    struct Parser {
        let tokens: [Token]
        let source: String
        var position = 0

        var peek: Token { tokens[position] }

        func error(_ what: String) -> SampleError { SampleError("\(what) in the expression \(source)") }

        mutating func take(_ token: Token) -> Bool {
            guard peek == token else { return false }
            position += 1
            return true
        }

        mutating func expect(_ token: Token) throws(SampleError) {
            guard take(token) else { throw error("\(token) expected, not \(peek)") }
        }

        /// `a if c else b`
        mutating func expression() throws(SampleError) -> SampleExpression {
            let value = try or()
            guard take(.name("if")) else { return value }
            let condition = try or()
            try expect(.name("else"))
            return .conditional(value, if: condition, else: try expression())
        }

        mutating func or() throws(SampleError) -> SampleExpression {
            var left = try and()
            while take(.name("or")) { left = .or(left, try and()) }
            return left
        }

        mutating func and() throws(SampleError) -> SampleExpression {
            var left = try not()
            while take(.name("and")) { left = .and(left, try not()) }
            return left
        }

        mutating func not() throws(SampleError) -> SampleExpression {
            if take(.name("not")) { return .not(try not()) }
            return try comparison()
        }

        mutating func comparison() throws(SampleError) -> SampleExpression {
            let left = try binary(level: 0)
            for symbol in ["==", "!=", "<", "<=", ">", ">="] where take(.symbol(symbol)) {
                let right = try binary(level: 0)
                if case .symbol(let next) = peek, ["==", "!=", "<", "<=", ">", ">="].contains(next) {
                    throw error("one comparison operator at a time")
                }
                return .compare(symbol, left, right)
            }
            return left
        }

        static let levels: [[String]] = [["|"], ["&"], ["<<", ">>"], ["+", "-"], ["*", "/", "//", "%"]]

        mutating func binary(level: Int) throws(SampleError) -> SampleExpression {
            guard level < Self.levels.count else { return try unary() }
            var left = try binary(level: level + 1)
            loop: while true {
                for symbol in Self.levels[level] where take(.symbol(symbol)) {
                    left = .binary(symbol, left, try binary(level: level + 1))
                    continue loop
                }
                return left
            }
        }

        mutating func unary() throws(SampleError) -> SampleExpression {
            if take(.symbol("-")) { return .negate(try unary()) }
            return try postfix()
        }

        mutating func postfix() throws(SampleError) -> SampleExpression {
            var value = try atom()
            while true {
                if take(.symbol("[")) {
                    value = .index(value, try expression())
                    try expect(.symbol("]"))
                } else if peek == .symbol("(") {
                    guard case .name(let function) = value else { throw error("only functions are called") }
                    guard SampleFunctions.names.contains(function) else {
                        throw error("calls are to \(SampleFunctions.names.joined(separator: ", ")), not \(function)")
                    }
                    position += 1
                    value = .call(function, try elements(until: ")"))
                } else {
                    return value
                }
            }
        }

        mutating func elements(until close: String) throws(SampleError) -> [SampleExpression] {
            var items: [SampleExpression] = []
            while !take(.symbol(close)) {
                if !items.isEmpty { try expect(.symbol(",")) }
                if take(.symbol(close)) { break }
                items.append(try expression())
            }
            return items
        }

        mutating func atom() throws(SampleError) -> SampleExpression {
            let token = peek
            position += 1
            switch token {
            case .number(let value): return .constant(value)
            case .string(let text): return .constant(.string(text))
            case .name("None"): return .constant(.null)
            case .name("True"): return .constant(.bool(true))
            case .name("False"): return .constant(.bool(false))
            case .name(let name) where !["if", "else", "and", "or", "not"].contains(name): return .name(name)
            case .symbol("("):
                let inner = try expression()
                try expect(.symbol(")"))
                return inner
            case .symbol("["): return .list(try elements(until: "]"))
            default: throw error("unexpected \(token)")
            }
        }
    }

    // MARK: Evaluation (Python's meaning)

    func evaluate(_ environment: SampleEnvironment) throws(SampleError) -> SampleValue {
        switch self {
        case .constant(let value): return value
        case .name(let name):
            guard let value = environment.variables[name] else { throw SampleError("\(name) is not defined") }
            return value
        case .list(let items): return .array(try items.map { (item) throws(SampleError) in try item.evaluate(environment) })
        case .negate(let operand):
            switch try operand.evaluate(environment) {
            case .int(let value):
                guard value != .min else { throw SampleError("-\(value) overflows") }
                return .int(-value)
            case .double(let value): return .double(-value)
            case let value: throw SampleError("-\(value) is not a number")
            }
        case .not(let operand): return .bool(!(try operand.evaluate(environment)).truthy)
        case .and(let left, let right):
            let value = try left.evaluate(environment)
            return value.truthy ? try right.evaluate(environment) : value
        case .or(let left, let right):
            let value = try left.evaluate(environment)
            return value.truthy ? value : try right.evaluate(environment)
        case .conditional(let value, let condition, let otherwise):
            return try condition.evaluate(environment).truthy ? try value.evaluate(environment) : try otherwise.evaluate(environment)
        case .compare(let symbol, let left, let right):
            return .bool(try Self.compare(symbol, try left.evaluate(environment), try right.evaluate(environment)))
        case .binary(let symbol, let left, let right):
            return try Self.binary(symbol, try left.evaluate(environment), try right.evaluate(environment))
        case .index(let container, let index):
            let value = try container.evaluate(environment)
            guard case .int(var i) = try index.evaluate(environment) else { throw SampleError("an index is an integer") }
            switch value {
            case .array(let items):
                if i < 0 { i += items.count }
                guard items.indices.contains(i) else { throw SampleError("index \(i) out of range") }
                return items[i]
            case .string(let text):
                let scalars = Array(text.unicodeScalars)
                if i < 0 { i += scalars.count }
                guard scalars.indices.contains(i) else { throw SampleError("index \(i) out of range") }
                return .string(String(scalars[i]))
            default: throw SampleError("only lists and strings are indexed")
            }
        case .call(let function, let arguments):
            let values = try arguments.map { (argument) throws(SampleError) in try argument.evaluate(environment) }
            return try SampleFunctions.call(function, values, environment)
        }
    }

    static func compare(_ symbol: String, _ left: SampleValue, _ right: SampleValue) throws(SampleError) -> Bool {
        if symbol == "==" || symbol == "!=" {
            let equal: Bool
            if let a = left.number, let b = right.number { equal = a == b } else { equal = left == right }
            return symbol == "==" ? equal : !equal
        }
        let order: Int
        switch (left, right) {
        case (.int(let a), .int(let b)): order = a < b ? -1 : a == b ? 0 : 1
        case (.string(let a), .string(let b)):
            // Python compares strings scalar by scalar.
            let x = a.unicodeScalars.map(\.value), y = b.unicodeScalars.map(\.value)
            order = x.lexicographicallyPrecedes(y) ? -1 : x == y ? 0 : 1
        default:
            guard let a = left.number, let b = right.number else { throw SampleError("\(left) \(symbol) \(right) compares unlike values") }
            order = a < b ? -1 : a == b ? 0 : 1
        }
        switch symbol {
        case "<": return order < 0
        case "<=": return order <= 0
        case ">": return order > 0
        default: return order >= 0
        }
    }

    static func binary(_ symbol: String, _ left: SampleValue, _ right: SampleValue) throws(SampleError) -> SampleValue {
        switch (symbol, left, right) {
        case ("+", .string(let a), .string(let b)): return .string(a + b)
        case ("+", .array(let a), .array(let b)): return .array(a + b)
        case ("*", .string(let a), .int(let n)), ("*", .int(let n), .string(let a)): return .string(String(repeating: a, count: max(0, n)))
        case ("*", .array(let a), .int(let n)), ("*", .int(let n), .array(let a)):
            return .array(Array([[SampleValue]](repeating: a, count: max(0, n)).joined()))
        case (_, .int(let a), .int(let b)):
            return try integer(symbol, a, b)
        default:
            guard let a = left.number, let b = right.number else { throw SampleError("\(left) \(symbol) \(right) is not defined") }
            switch symbol {
            case "+": return .double(a + b)
            case "-": return .double(a - b)
            case "*": return .double(a * b)
            case "/":
                guard b != 0 else { throw SampleError("division by zero") }
                return .double(a / b)
            case "//":
                guard b != 0 else { throw SampleError("division by zero") }
                return .double((a / b).rounded(.down))
            case "%":
                guard b != 0 else { throw SampleError("division by zero") }
                var r = a.truncatingRemainder(dividingBy: b)
                if r != 0, (r < 0) != (b < 0) { r += b }
                return .double(r)
            default: throw SampleError("\(symbol) takes integers")
            }
        }
    }

    static func integer(_ symbol: String, _ a: Int, _ b: Int) throws(SampleError) -> SampleValue {
        func checked(_ result: (partialValue: Int, overflow: Bool)) throws(SampleError) -> SampleValue {
            guard !result.overflow else { throw SampleError("\(a) \(symbol) \(b) overflows") }
            return .int(result.partialValue)
        }
        switch symbol {
        case "+": return try checked(a.addingReportingOverflow(b))
        case "-": return try checked(a.subtractingReportingOverflow(b))
        case "*": return try checked(a.multipliedReportingOverflow(by: b))
        case "/":
            guard b != 0 else { throw SampleError("division by zero") }
            return .double(Double(a) / Double(b))
        case "//", "%":
            guard b != 0 else { throw SampleError("division by zero") }
            guard !(a == .min && b == -1) else { throw SampleError("\(a) \(symbol) \(b) overflows") }
            // Python floors the quotient; the remainder takes the divisor's sign.
            var q = a / b, r = a % b
            if r != 0, (r < 0) != (b < 0) {
                q -= 1
                r += b
            }
            return .int(symbol == "//" ? q : r)
        case "&": return .int(a & b)
        case "|": return .int(a | b)
        case "<<":
            guard b >= 0 else { throw SampleError("a negative shift") }
            guard b < 63, a == (a << b) >> b else { throw SampleError("\(a) << \(b) overflows") }
            return .int(a << b)
        case ">>":
            guard b >= 0 else { throw SampleError("a negative shift") }
            return .int(a >> min(b, 63))
        default: throw SampleError("\(symbol) is not an operator")
        }
    }
}

extension SampleValue {
    /// Python's truth: None, False, zero and empty strings, lists and objects are false.
    var truthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0
        case .string(let text): !text.isEmpty
        case .array(let items): !items.isEmpty
        case .object(let members): !members.isEmpty
        }
    }

    /// An integer or a fraction, as a Double (for arithmetic that mixes them, as Python does).
    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
