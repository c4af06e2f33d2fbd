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

    static func write<T: CBORNodeConvertible>(_ value: T, to out: inout String) {
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
            writeSequence(items, open: indefinite ? "[_ " : "[", close: "]", to: &out) { write($0, to: &$1) }
        case .map(let entries, let indefinite):
            writeSequence(entries, open: indefinite ? "{_ " : "{", close: "}", to: &out) { entry, text in
                write(entry.key, to: &text)
                text += ": "
                write(entry.value, to: &text)
            }
        case .tag(let n, let content):
            out += String(n) + "("
            write(content, to: &out)
            out += ")"
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
