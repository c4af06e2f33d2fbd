import SwiftASN1
import X509

/// Apple's extensions of a credential certificate besides the nonce
/// (docs/models/app-attest.md, Certificate extensions that
/// carry no verdict): 1.2.840.113635.100.8.5, .8.6 (in the 2026 sample)
/// and .8.7 (undocumented; public verifiers read OS version and device
/// details from it). Decoded for people (`trustsuite inspect`) as far as
/// their bytes allow; no verifier reads them, so nothing here decides a
/// verdict, and a malformed value is only described.
public enum AppleCertificateExtensions {
    public static let oid85: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 5]
    public static let oid86: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 6]
    public static let oid87: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 7]

    /// Deepest nesting rendered: the values seen are 6 levels deep; this
    /// bounds the text a hostile certificate can make us write.
    static let maxRenderDepth = 12

    /// What could be read of one extension: a label and one line per item.
    public struct Reading: Sendable, Hashable {
        public let label: String
        public let lines: [String]
    }

    /// The reading of `value` when `oid` is one of Apple's informational
    /// extensions, else nil.
    public static func read(oid: ASN1ObjectIdentifier, value: ArraySlice<UInt8>) -> Reading? {
        let label: String
        switch oid {
        case oid85: label = "Apple key usage properties (informational, undocumented)"
        case oid86: label = "Apple extension 8.6 (informational, undocumented)"
        case oid87: label = "Apple device OS information (informational, undocumented)"
        default: return nil
        }
        guard let root = try? DER.parse(Array(value)) else {
            return Reading(label: label, lines: ["not DER (\(value.count) bytes): \(hex(value))"])
        }
        if oid == oid86, let lines = flagList(root) { return Reading(label: label, lines: lines) }
        // A SEQUENCE of items (8.5, 8.7: context-tagged values): one line each.
        if root.identifier == .sequence, case .constructed(let items) = root.content {
            return Reading(label: label, lines: items.map { render($0, depth: 1) })
        }
        return Reading(label: label, lines: [render(root, depth: 0)])
    }

    /// 8.6 as the 2026 sample shapes it: `SEQUENCE { [3] { OCTET STRING {
    /// SEQUENCE { UTF8String version, SEQUENCE OF SEQUENCE { UTF8String
    /// name, [1] { BOOLEAN } } } } } }`: the version and `name: value` pairs.
    static func flagList(_ root: ASN1Node) -> [String]? {
        guard root.identifier == .sequence, let tagged = only(children(root)),
            tagged.identifier == ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific),
            let octets = only(children(tagged)), octets.identifier == .octetString, case .primitive(let bytes) = octets.content,
            let inner = try? DER.parse(Array(bytes)), let parts = children(inner), parts.count == 2,
            let version = text(parts[0]), let entries = children(parts[1])
        else { return nil }
        var pairs: [String] = []
        for entry in entries {
            guard let fields = children(entry), fields.count == 2, let name = text(fields[0]) else { return nil }
            // The value sits in an explicit [1].
            let value = fields[1].identifier.tagClass == .contextSpecific ? only(children(fields[1])) ?? fields[1] : fields[1]
            pairs.append("\(name): \(render(value, depth: 2))")
        }
        return ["version \"\(version)\"", pairs.isEmpty ? "(no entries)" : pairs.joined(separator: ", ")]
    }

    /// A constructed node's children, else nil.
    static func children(_ node: ASN1Node) -> [ASN1Node]? {
        guard case .constructed(let nodes) = node.content else { return nil }
        return Array(nodes)
    }

    /// The one node of a list of one.
    static func only(_ nodes: [ASN1Node]?) -> ASN1Node? {
        guard let nodes, nodes.count == 1 else { return nil }
        return nodes.first
    }

    /// One node as text: strings quoted, integers in decimal (hex when
    /// long), booleans, OIDs dotted, context tags as `[n]`, an OCTET STRING
    /// holding DER rendered inside braces, anything else in hex.
    static func render(_ node: ASN1Node, depth: Int) -> String {
        guard depth < maxRenderDepth else { return "…" }
        switch node.content {
        case .constructed(let children):
            let inner = children.map { render($0, depth: depth + 1) }
            if node.identifier.tagClass == .contextSpecific {
                let body = inner.count == 1 ? inner[0] : "{ \(inner.joined(separator: ", ")) }"
                return "[\(node.identifier.tagNumber)] \(body)"
            }
            return "{ \(inner.joined(separator: ", ")) }"
        case .primitive(let bytes):
            if let string = text(node) { return "\"\(string)\"" }
            switch node.identifier {
            case .boolean: return bytes == [0xFF] ? "true" : bytes == [0x00] ? "false" : "BOOLEAN \(hex(bytes))"
            case .integer:
                guard bytes.count <= 7, let first = bytes.first, first < 0x80 else { return "INTEGER \(hex(bytes))" }
                return String(bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            case .null: return "NULL"
            case .objectIdentifier:
                return (try? ASN1ObjectIdentifier(derEncoded: node)).map { "\($0)" } ?? "OID \(hex(bytes))"
            case .octetString:
                if let nested = try? DER.parse(Array(bytes)) { return "{ \(render(nested, depth: depth + 1)) }" }
                return hex(bytes)
            default:
                return "\(node.identifier) \(hex(bytes))"
            }
        }
    }

    /// The text of a string node, or of an OCTET STRING of printable ASCII.
    static func text(_ node: ASN1Node) -> String? {
        guard case .primitive(let bytes) = node.content else { return nil }
        switch node.identifier {
        case .utf8String, .printableString, .ia5String: return String(validating: bytes, as: UTF8.self)
        case .octetString:
            guard !bytes.isEmpty, bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        default: return nil
        }
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        guard !bytes.isEmpty else { return "(empty)" }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}
