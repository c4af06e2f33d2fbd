import Foundation

/// Hex and base64 text for the binary fields of vectors (spec/vectors.md:
/// standard base64 with padding, or hex where the field name ends in `Hex`).
public enum BinaryText {
    /// Decodes hex (either case; spaces, and a leading `0x` ignored). nil when malformed.
    public static func hex(_ text: some StringProtocol) -> [UInt8]? {
        var digits = text.unicodeScalars.filter { !$0.properties.isWhitespace }[...]
        if digits.count >= 2, digits.first == "0", let x = digits.dropFirst().first, x == "x" || x == "X" {
            digits = digits.dropFirst(2)
        }
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var high: UInt8? = nil
        for scalar in digits {
            guard let nibble = nibble(scalar) else { return nil }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return out
    }

    static func nibble(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x30...0x39: return UInt8(scalar.value - 0x30)
        case 0x41...0x46: return UInt8(scalar.value - 0x41 + 10)
        case 0x61...0x66: return UInt8(scalar.value - 0x61 + 10)
        default: return nil
        }
    }

    /// Lowercase hex.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return out
    }

    /// Decodes standard base64 with padding. nil when malformed.
    public static func base64(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { [UInt8]($0) }
    }

    /// Standard base64 with padding.
    public static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}
