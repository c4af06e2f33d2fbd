/// RFC 8949 §8 diagnostic notation.
extension CBORValue: CustomStringConvertible {
    /// The value in RFC 8949 §8 diagnostic notation, e.g. `{1: [_ h'01', "a"]}`.
    public var diagnostic: String { CBORDiagnostic.string(self) }

    public var description: String { diagnostic }
}

extension CBORItem: CustomStringConvertible {
    /// The item in RFC 8949 §8 diagnostic notation, indefinite lengths and
    /// map order as sent.
    public var diagnostic: String { CBORDiagnostic.string(self) }

    public var description: String { diagnostic }
}

enum CBORDiagnostic {
    static let hexDigits = Array("0123456789abcdef")

    static func string<T: CBORNodeConvertible>(_ value: T) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    /// What is left to write: a value, or the punctuation after one.
    enum Pending<T> {
        case value(T)
        case text(String)
    }

    /// Writes `root` with an explicit stack of what is left to write (last
    /// first), so nesting costs heap, not call stack.
    static func write<T: CBORNodeConvertible>(_ root: T, to out: inout String) {
        var stack: [Pending<T>] = [.value(root)]
        while let next = stack.popLast() {
            switch next {
            case .text(let text):
                out += text
            case .value(let value):
                writeLevel(value, to: &out, then: &stack)
            }
        }
    }

    /// Writes one level of `value`: a leaf whole; a container or tag's
    /// opening, with its children and closing pushed on `stack`.
    static func writeLevel<T: CBORNodeConvertible>(_ value: T, to out: inout String, then stack: inout [Pending<T>]) {
        switch value.node {
        case .unsigned(let n):
            out += String(n)
        case .negative(let n):
            // -1 - n; n + 1 would overflow for n == UInt64.max.
            out += n == UInt64.max ? "-18446744073709551616" : "-" + String(n + 1)
        case .bytes(let chunks, false):
            writeBytes(chunks.first ?? [], to: &out)
        case .text(let chunks, false):
            writeText(chunks.first ?? "", to: &out)
        case .bytes(let chunks, true):
            if chunks.isEmpty { out += "''_"; return }
            writeSequence(chunks, open: "(_ ", close: ")", to: &out) { writeBytes($0, to: &$1) }
        case .text(let chunks, true):
            if chunks.isEmpty { out += "\"\"_"; return }
            writeSequence(chunks, open: "(_ ", close: ")", to: &out) { writeText($0, to: &$1) }
        case .array(let items, let indefinite):
            out += indefinite ? "[_ " : "["
            stack.append(.text("]"))
            for (i, item) in items.enumerated().reversed() {
                stack.append(.value(item))
                if i > 0 { stack.append(.text(", ")) }
            }
        case .map(let entries, let indefinite):
            out += indefinite ? "{_ " : "{"
            stack.append(.text("}"))
            for (i, entry) in entries.enumerated().reversed() {
                stack.append(.value(entry.value))
                stack.append(.text(": "))
                stack.append(.value(entry.key))
                if i > 0 { stack.append(.text(", ")) }
            }
        case .tag(let n, let content):
            out += String(n) + "("
            stack.append(.text(")"))
            stack.append(.value(content))
        case .simple(20):
            out += "false"
        case .simple(21):
            out += "true"
        case .simple(22):
            out += "null"
        case .simple(23):
            out += "undefined"
        case .simple(let n):
            out += "simple(\(n))"
        case .float(let d):
            out += formatFloat(d)
        }
    }

    /// A string's chunks (leaves), `open` and `close` around them.
    static func writeSequence<T>(
        _ items: [T], open: String, close: String, to out: inout String,
        _ element: (T, inout String) -> Void
    ) {
        out += open
        for (i, item) in items.enumerated() {
            if i > 0 { out += ", " }
            element(item, &out)
        }
        out += close
    }

    static func writeBytes(_ bytes: ArraySlice<UInt8>, to out: inout String) {
        out += "h'"
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        out += "'"
    }

    /// Text in double quotes with JSON escaping (RFC 8949 §8).
    static func writeText(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let v = Int(scalar.value)
                out += "\\u00" + String(hexDigits[v >> 4]) + String(hexDigits[v & 0x0F])
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Shortest round-trip decimal, always with a fraction or exponent:
    /// `1.5`, `-0.0`, `1.0e+300`, `Infinity`, `NaN`.
    static func formatFloat(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        var text = d.description
        if let e = text.firstIndex(of: "e") {
            if !text[..<e].contains(".") { text.insert(contentsOf: ".0", at: e) }
        } else if !text.contains(".") {
            text += ".0"
        }
        return text
    }
}
