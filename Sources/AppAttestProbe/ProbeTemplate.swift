import Foundation
import TrustSuiteSupport

/// A config string with placeholders (docs/probe.md): `{name}` or
/// `{name:encoding}` for the names below; any other text in braces is
/// literal. Parsed once, so a request's text is the same however often it
/// is filled.
public struct ProbeTemplate: Sendable, Hashable {
    /// The values a request can carry.
    public enum Name: String, Sendable, CaseIterable {
        case keyId, attestationObject, assertion, clientData, challenge
    }

    enum Segment: Sendable, Hashable {
        case literal(String)
        /// nil encoding: a binary value in base64, the challenge as the server wrote it.
        case placeholder(Name, ProbeConfig.Encoding?)
    }

    let segments: [Segment]
    public let text: String

    public init(_ text: String) {
        self.text = text
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let after = rest[rest.index(after: open)...]
            // The placeholder runs to the first `}`, and holds no `{`.
            if let close = after.firstIndex(where: { $0 == "}" || $0 == "{" }), after[close] == "}",
                let placeholder = Self.placeholder(after[..<close])
            {
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = ""
                segments.append(placeholder)
                rest = after[after.index(after: close)...]
            } else {
                literal += "{"
                rest = after
            }
        }
        literal += rest
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    static func placeholder(_ inside: Substring) -> Segment? {
        let parts = inside.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = Name(rawValue: String(parts[0])) else { return nil }
        guard parts.count == 2 else { return .placeholder(name, nil) }
        guard let encoding = ProbeConfig.Encoding(rawValue: String(parts[1])) else { return nil }
        return .placeholder(name, encoding)
    }

    /// The names this template uses.
    public var names: Set<Name> {
        Set(segments.compactMap { if case .placeholder(let name, _) = $0 { name } else { nil } })
    }

    /// The text with every placeholder replaced from `values`; a name with no value is left as written.
    public func fill(_ values: ProbeValues) -> String {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .placeholder(let name, let encoding): values.text(name, encoding) ?? Self.written(name, encoding)
            }
        }.joined()
    }

    static func written(_ name: Name, _ encoding: ProbeConfig.Encoding?) -> String {
        "{\(name.rawValue)\(encoding.map { ":\($0.rawValue)" } ?? "")}"
    }

    /// Fills every string of a JSON body (keys stay as written).
    static func fill(_ body: JSONValue, _ values: ProbeValues) -> JSONValue {
        switch body {
        case .string(let text): .string(ProbeTemplate(text).fill(values))
        case .array(let items): .array(items.map { fill($0, values) })
        case .object(let members): .object(members.mapValues { fill($0, values) })
        default: body
        }
    }

    /// Whether any string of a JSON body uses `name`.
    static func uses(_ body: JSONValue?, _ name: Name) -> Bool {
        switch body {
        case .string(let text): ProbeTemplate(text).names.contains(name)
        case .array(let items): items.contains { uses($0, name) }
        case .object(let members): members.values.contains { uses($0, name) }
        default: false
        }
    }
}

/// The values of one request: binary values, and the challenge both as the
/// server wrote it and as bytes.
public struct ProbeValues: Sendable {
    public var keyId: [UInt8]?
    public var attestationObject: [UInt8]?
    public var assertion: [UInt8]?
    public var clientData: [UInt8]?
    public var challenge: ProbeChallenge?

    public init(
        keyId: [UInt8]? = nil, attestationObject: [UInt8]? = nil, assertion: [UInt8]? = nil, clientData: [UInt8]? = nil,
        challenge: ProbeChallenge? = nil
    ) {
        self.keyId = keyId
        self.attestationObject = attestationObject
        self.assertion = assertion
        self.clientData = clientData
        self.challenge = challenge
    }

    func text(_ name: ProbeTemplate.Name, _ encoding: ProbeConfig.Encoding?) -> String? {
        let bytes: [UInt8]?
        switch name {
        case .keyId: bytes = keyId
        case .attestationObject: bytes = attestationObject
        case .assertion: bytes = assertion
        case .clientData: bytes = clientData
        case .challenge:
            guard let challenge else { return nil }
            guard encoding != nil else { return challenge.written }
            bytes = challenge.bytes
        }
        return bytes.map { ProbeEncoding.encode($0, encoding ?? .base64) }
    }
}

/// A challenge as the server issued it.
public struct ProbeChallenge: Sendable, Hashable {
    /// Exactly as the server wrote it at the config's pointer.
    public let written: String
    /// Its bytes, decoded per `challenge.encoding` (UTF-8 for `text`).
    public let bytes: [UInt8]

    public init(written: String, bytes: [UInt8]) {
        self.written = written
        self.bytes = bytes
    }

    /// Decodes `written` per `encoding`; nil when it is not of that form.
    public init?(written: String, encoding: ProbeConfig.Encoding) {
        guard let bytes = ProbeEncoding.decode(written, encoding) else { return nil }
        self.init(written: written, bytes: bytes)
    }
}

/// The four encodings of docs/probe.md. base64url is written without
/// padding (as web APIs use it) and read with or without.
public enum ProbeEncoding {
    public static func encode(_ bytes: [UInt8], _ encoding: ProbeConfig.Encoding) -> String {
        switch encoding {
        case .base64: return BinaryText.base64(bytes)
        case .base64url:
            return String(BinaryText.base64(bytes).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }.filter { $0 != "=" })
        case .hex: return BinaryText.hex(bytes)
        case .text: return String(decoding: bytes, as: UTF8.self)
        }
    }

    public static func decode(_ text: String, _ encoding: ProbeConfig.Encoding) -> [UInt8]? {
        switch encoding {
        case .base64: return BinaryText.base64(text)
        case .base64url:
            guard !text.contains("+"), !text.contains("/") else { return nil }
            var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
            if !standard.contains("=") { standard += String(repeating: "=", count: (4 - standard.count % 4) % 4) }
            return BinaryText.base64(standard)
        case .hex: return BinaryText.hex(text)
        case .text: return Array(text.utf8)
        }
    }
}

/// An RFC 6901 JSON pointer (`/a/0/b`, `~0` for `~`, `~1` for `/`).
public struct JSONPointer: Sendable, Hashable {
    public let tokens: [String]

    public init(tokens: [String]) { self.tokens = tokens }

    public init?(_ text: String) {
        guard !text.isEmpty else {
            self.init(tokens: [])
            return
        }
        guard text.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            // `~` must be followed by 0 or 1.
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                if character == "~" {
                    switch iterator.next() {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: return nil
                    }
                } else {
                    token.append(character)
                }
            }
            tokens.append(token)
        }
        self.init(tokens: tokens)
    }

    /// The value the pointer names in `document`, nil when it names nothing.
    public func resolve(_ document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            if let object = current.objectValue {
                guard let next = object[token] else { return nil }
                current = next
            } else if let array = current.arrayValue {
                // Array indices are decimal without leading zeros (RFC 6901 §4).
                guard let index = Int(token), String(index) == token, array.indices.contains(index) else { return nil }
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    public var text: String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined()
    }
}
