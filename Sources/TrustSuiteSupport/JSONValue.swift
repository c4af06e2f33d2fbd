import Foundation

/// A JSON value as read from vector files and adapter lines.
///
/// Integers that fit in Int64 or UInt64 stay exact; other numbers are Doubles.
/// Objects keep no key order (reports sort keys).
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int64.self) {
            self = .int(i)
        } else if let u = try? container.decode(UInt64.self) {
            self = .uint(u)
        } else if let d = try? container.decode(Double.self) {
            self = .double(d)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .uint(let u): try container.encode(u)
        case .double(let d) where !d.isFinite:
            // JSON has no NaN or infinity: their RFC 8949 diagnostic spelling, as a string.
            try container.encode(d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity")
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The value as Int64 when it is an integer that fits.
    public var int64Value: Int64? {
        switch self {
        case .int(let i): return i
        case .uint(let u): return u <= UInt64(Int64.max) ? Int64(u) : nil
        case .double(let d): return d.rounded() == d && abs(d) < 9.0e18 ? Int64(d) : nil
        default: return nil
        }
    }

    /// Numeric equality across the integer and double cases; structural otherwise.
    public func matches(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.int, _), (.uint, _), (.double, _):
            if let a = int64Value, let b = other.int64Value { return a == b }
            if case .uint(let a) = self, case .uint(let b) = other { return a == b }
            if case .double(let a) = self, case .double(let b) = other { return a == b }
            return false
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.matches($1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map(value.matches) ?? false }
        default:
            return self == other
        }
    }

    /// Compact JSON text with sorted keys.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
