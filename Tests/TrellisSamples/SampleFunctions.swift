/// The functions a recipe may call, each as scripts/trellis_samples.py defines it.
enum SampleFunctions {
    static let names = ["min", "max", "len", "str", "chr", "join", "words", "bits", "pad", "zpad", "prefix", "scalar_run", "prose", "letters", "normal"]

    static let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "qu", "an", "el", "or"]
    /// Every Unicode scalar from U+00A0 to U+2FFFF but the surrogates, in order.
    static let scalarsFirst = 0xA0, scalarsCount = 0x30000 - 0xA0 - 0x800

    static func call(_ name: String, _ arguments: [SampleValue], _ environment: SampleEnvironment) throws(SampleError) -> SampleValue {
        func arity(_ n: Int) throws(SampleError) {
            guard arguments.count == n else { throw SampleError("\(name) takes \(n) arguments, not \(arguments.count)") }
        }
        func int(_ i: Int) throws(SampleError) -> Int {
            guard case .int(let value) = arguments[i] else { throw SampleError("\(name)'s argument \(i + 1) is an integer") }
            return value
        }
        func string(_ i: Int) throws(SampleError) -> String {
            guard case .string(let value) = arguments[i] else { throw SampleError("\(name)'s argument \(i + 1) is a string") }
            return value
        }
        switch name {
        case "min", "max":
            guard var best = arguments.first else { throw SampleError("\(name) takes at least one argument") }
            for value in arguments.dropFirst() {
                // Python keeps the first of equal values.
                if try SampleExpression.compare(name == "min" ? "<" : ">", value, best) { best = value }
            }
            return best
        case "len":
            try arity(1)
            switch arguments[0] {
            case .string(let text): return .int(text.unicodeScalars.count)
            case .array(let items): return .int(items.count)
            default: throw SampleError("len takes a string or a list")
            }
        case "str":
            try arity(1)
            switch arguments[0] {
            case .int(let value): return .string(String(value))
            case .string: return arguments[0]
            default: throw SampleError("str takes an integer or a string")
            }
        case "chr":
            try arity(1)
            guard let scalar = Unicode.Scalar(UInt32(clamping: max(0, try int(0)))) else { throw SampleError("chr(\(try int(0))) is not a scalar") }
            return .string(String(scalar))
        case "join":
            try arity(2)
            guard case .array(let items) = arguments[0] else { throw SampleError("join takes a list of strings") }
            let separator = try string(1)
            var parts: [String] = []
            for item in items {
                guard case .string(let text) = item else { throw SampleError("join takes a list of strings") }
                parts.append(text)
            }
            return .string(parts.joined(separator: separator))
        case "words":
            try arity(2)
            return .array(words(try int(0), seed: try int(1), salt: environment.salt).map { .string($0) })
        case "bits":
            try arity(4)
            let k = try int(0), one = try string(2), zero = try string(3)
            return .string((0..<max(0, try int(1))).map { j in j < 64 && (k >> j) & 1 == 1 ? one : zero }.joined())
        case "pad":
            try arity(2)
            let text = try string(0)
            return .string(text + String(repeating: " ", count: max(0, try int(1) - text.unicodeScalars.count)))
        case "zpad":
            try arity(2)
            let n = try int(0)
            guard n >= 0 else { throw SampleError("zpad takes n ≥ 0") }
            let digits = String(n)
            return .string(String(repeating: "0", count: max(0, try int(1) - digits.count)) + digits)
        case "prefix":
            try arity(2)
            var out = String.UnicodeScalarView()
            out.append(contentsOf: try string(0).unicodeScalars.prefix(max(0, try int(1))))
            return .string(String(out))
        case "scalar_run":
            try arity(2)
            let k = try int(0)
            var out = String.UnicodeScalarView()
            for j in 0..<max(0, try int(1)) {
                let position = ((k + j) % scalarsCount + scalarsCount) % scalarsCount
                let c = scalarsFirst + position
                out.append(Unicode.Scalar(UInt32(c >= 0xD800 ? c + 0x800 : c))!)
            }
            return .string(String(out))
        case "prose":
            try arity(3)
            guard case .array(let items) = arguments[0], !items.isEmpty else { throw SampleError("prose takes a list of words") }
            var vocabulary: [String] = []
            for item in items {
                guard case .string(let word) = item else { throw SampleError("prose takes a list of words") }
                vocabulary.append(word)
            }
            return .string(prose(vocabulary, scalars: try int(1), seed: try int(2), salt: environment.salt))
        case "letters":
            try arity(4)
            let first = try int(0), count = try int(1)
            guard count > 0 else { throw SampleError("letters takes a count > 0") }
            var x = UInt64(bitPattern: Int64(try int(3) &+ environment.salt &* 1_000_003))
            var out = String.UnicodeScalarView()
            for _ in 0..<max(0, try int(2)) {
                x = lcg(x)
                guard let scalar = Unicode.Scalar(UInt32(first + Int((x >> 33) % UInt64(count)))) else {
                    throw SampleError("letters(\(first), \(count), ...) reaches past the scalars")
                }
                out.append(scalar)
            }
            return .string(String(out))
        case "normal":
            try arity(2)
            let path = try string(0)
            let sample = try environment.samples.fuzzerNormal(for: path)
            return try environment.samples.value(sample, size: try int(1), salt: environment.salt)
        default:
            throw SampleError("\(name) is not a samples function")
        }
    }

    /// The 64-bit linear congruential generator the recipes' texts come from (Knuth's MMIX constants).
    static func lcg(_ x: UInt64) -> UInt64 { x &* 6364136223846793005 &+ 1442695040888963407 }

    /// n different short words of 2 to 4 syllables and a number, from the LCG seeded by seed and the salt.
    static func words(_ n: Int, seed: Int, salt: Int) -> [String] {
        var x = UInt64(bitPattern: Int64(seed &+ salt &* 1_000_003))
        var out: [String] = []
        for i in 0..<max(0, n) {
            x = lcg(x)
            let k = 2 + Int((x >> 60) % 3)
            var word = ""
            for j in 0..<k { word += syllables[Int((x >> UInt64(8 * j)) % UInt64(syllables.count))] }
            out.append(word + String((i + salt) % 97))
        }
        return out
    }

    /// Words of `vocabulary` without spaces between them, a space after every sixth (as between phrases), cut to
    /// `scalars` scalars and stripped of white space at both ends; from the LCG seeded by seed and the salt.
    static func prose(_ vocabulary: [String], scalars: Int, seed: Int, salt: Int) -> String {
        var x = UInt64(bitPattern: Int64(seed &+ salt &* 1_000_003))
        var out: [Unicode.Scalar] = []
        var pieces = 0
        while out.count < scalars {
            x = lcg(x)
            out += vocabulary[Int((x >> 33) % UInt64(vocabulary.count))].unicodeScalars
            if pieces % 6 == 5 { out.append(" ") }
            pieces += 1
        }
        var cut = Array(out.prefix(max(0, scalars)))
        while let last = cut.last, last.properties.isWhitespace { cut.removeLast() }
        while let first = cut.first, first.properties.isWhitespace { cut.removeFirst() }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: cut)
        return String(text)
    }
}
