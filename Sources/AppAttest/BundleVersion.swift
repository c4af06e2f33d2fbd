/// A bundle version as a launch policy compares it (docs/models/app-attest.md,
/// Launch policy): dot-separated decimal numbers compared
/// numerically, part by part, a missing part counting as 0 — `1.10` is
/// above `1.9`, `2` equals `2.0.0`.
///
/// Only ASCII digits and single dots between them are of that form (`""`,
/// `1.`, `.1`, `1..2`, `1.0b3`, ` 1` are not). Parts are compared as digit
/// strings (leading zeros dropped, then by length, then digit by digit), so
/// a part of any length compares without overflow.
public struct BundleVersion: Sendable, Comparable, CustomStringConvertible {
    /// The text as given.
    public let description: String
    /// Each part's digits without leading zeros (`""` is 0), trailing zero
    /// parts removed, so versions equal in value have equal parts.
    let parts: [[UInt8]]

    /// Parses `text`; nil when it is not dot-separated decimal numbers.
    public init?(_ text: String) {
        var parts: [[UInt8]] = []
        for part in text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            parts.append(Array(part.drop { $0 == UInt8(ascii: "0") }))
        }
        while parts.last?.isEmpty == true { parts.removeLast() }
        self.description = text
        self.parts = parts
    }

    public static func == (lhs: BundleVersion, rhs: BundleVersion) -> Bool { lhs.parts == rhs.parts }

    public static func < (lhs: BundleVersion, rhs: BundleVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let left = index < lhs.parts.count ? lhs.parts[index] : []
            let right = index < rhs.parts.count ? rhs.parts[index] : []
            if left.count != right.count { return left.count < right.count }
            if left != right { return left.lexicographicallyPrecedes(right) }
        }
        return false
    }
}
