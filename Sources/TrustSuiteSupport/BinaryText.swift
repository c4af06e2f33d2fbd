import Foundation

/// Hex and base64 text for the binary fields of vectors (docs/vectors.md:
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

    /// The forms a server really stores binary values in: standard base64 or
    /// base64url, with or without padding, surrounded by or broken with
    /// white space, after a UTF-8 byte-order mark. nil when the text is none
    /// of these (or empty).
    public static func base64Lenient(_ text: some Sequence<UInt8>) -> [UInt8]? {
        var bytes = Array(text)
        if bytes.starts(with: utf8BOM) { bytes.removeFirst(utf8BOM.count) }
        var alphabet: [UInt8] = []
        alphabet.reserveCapacity(bytes.count + 3)
        var padding = 0
        for byte in bytes {
            switch byte {
            case 0x09, 0x0A, 0x0D, 0x20: continue
            case 0x3D:  // '=' only at the end, at most two
                padding += 1
            case _ where padding > 0: return nil
            case 0x2D: alphabet.append(0x2B)  // '-' → '+'
            case 0x5F: alphabet.append(0x2F)  // '_' → '/'
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2F: alphabet.append(byte)
            default: return nil
            }
        }
        guard !alphabet.isEmpty, padding <= 2, alphabet.count % 4 != 1 else { return nil }
        if padding > 0, (alphabet.count + padding) % 4 != 0 { return nil }
        alphabet += [UInt8](repeating: 0x3D, count: (4 - alphabet.count % 4) % 4)
        return Data(base64Encoded: Data(alphabet)).map { [UInt8]($0) }
    }

    /// A file's content as binary: the decoded bytes when the whole file is
    /// base64 text in any form ``base64Lenient(_:)`` accepts, else the bytes
    /// as they are.
    public static func binaryOrBase64(_ content: [UInt8]) -> [UInt8] {
        base64Lenient(content) ?? content
    }

    static let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Standard base64 with padding.
    public static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}

/// A binary vector field in standard base64 with padding (docs/vectors.md):
/// malformed text is a decoding error, never empty bytes.
public struct Base64Bytes: Decodable, Sendable, Hashable {
    public let bytes: [UInt8]

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let bytes = BinaryText.base64(text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "must be standard base64"))
        }
        self.bytes = bytes
    }

    /// Bytes a Swift caller already has (nothing to decode).
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// A binary vector field whose name ends in `Hex`: malformed hex is a
/// decoding error, never empty bytes.
public struct HexBytes: Decodable, Sendable, Hashable {
    public let bytes: [UInt8]

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let bytes = BinaryText.hex(text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "must be hex"))
        }
        self.bytes = bytes
    }
}
