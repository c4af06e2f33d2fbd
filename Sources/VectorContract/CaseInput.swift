import TrustSuiteSupport
import Crypto
import Foundation

/// The input of a case as the reports show it (docs/vectors.md, Amendments
/// (round 3): reports show the case): the vector's input with its group's
/// defaults merged, CBOR as the hex it already is, and any string longer
/// than ``maxShownCharacters`` replaced by its start, its length and its
/// SHA-256, so a reader can reproduce the case without the fixture and a
/// report stays small.
public enum CaseInput {
    /// Longest string shown whole; certificates and attestation objects are
    /// longer and are shortened (a report lists every non-passing case).
    public static let maxShownCharacters = 1024
    /// How much of a shortened string is kept.
    static let keptCharacters = 64

    public static func shown(_ input: JSONValue) -> JSONValue {
        switch input {
        case .string(let text) where text.utf8.count > maxShownCharacters:
            let digest = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
            return .string("\(text.prefix(keptCharacters))… (\(text.utf8.count) bytes of text, SHA-256 of the text \(digest))")
        case .array(let items):
            return .array(items.map(shown))
        case .object(let fields):
            return .object(fields.mapValues(shown))
        default:
            return input
        }
    }
}
