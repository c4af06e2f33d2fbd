import AppAttest
import Foundation
import TrustSuiteSupport

/// How the probe talks to the server under test (docs/probe.md, Contract
/// with the server under test). The JSON shape is a public contract: every
/// field is read exactly as the spec names it, and every bad field is
/// reported on its own line.
public struct ProbeConfig: Sendable {
    /// How a challenge or a binary value is written as text.
    public enum Encoding: String, Sendable, CaseIterable {
        case base64, base64url, hex, text
    }

    /// What the app passed to `attestKey`: SHA-256 of the challenge's bytes, or those bytes.
    public enum ClientDataHash: String, Sendable, CaseIterable {
        case sha256, raw
    }

    /// The challenge request and where the answer holds the challenge.
    public struct ChallengeEndpoint: Sendable {
        public var method: String
        public var path: ProbeTemplate
        public var pointer: JSONPointer
        public var encoding: Encoding
        public var body: JSONValue?
    }

    /// The attest or assert request and the status codes that mean accepted or refused.
    public struct Endpoint: Sendable {
        public var method: String
        public var path: ProbeTemplate
        public var body: JSONValue
        public var accepted: Set<Int>
        public var refused: Set<Int>
        /// How the server says yes beyond the status (docs/probe.md, The
        /// server's answer): nil, a status in `accepted` is acceptance.
        public var acceptedWhen: AcceptedWhen? = nil

        /// How `response` reads by this endpoint's lists and `acceptedWhen`.
        public func read(_ response: ProbeResponse) -> Reading {
            switch response {
            case .failed(let reason):
                return .failed(reason)
            case .answered(let status, let body, let headers):
                if accepted.contains(status) {
                    guard let acceptedWhen, let signal = acceptedWhen.refusal(body: body, headers: headers) else {
                        return .accepted(status: status)
                    }
                    return .refused(status: status, signal: signal)
                }
                return refused.contains(status) ? .refused(status: status, signal: nil) : .neither(status: status)
            }
        }
    }

    /// How an endpoint's answer reads: accepted, refused (by status, or by
    /// a 2xx whose body or header says no: `signal` says what it said),
    /// a status in neither list, or no answer.
    public enum Reading: Sendable, Equatable {
        case accepted(status: Int)
        case refused(status: Int, signal: String?)
        case neither(status: Int)
        case failed(String)
    }

    /// `acceptedWhen`: an answer whose status is in `accepted` is acceptance
    /// only when the value at a JSON pointer of its body, or a header, equals
    /// `equals`; otherwise the server signalled a refusal in the answer (a
    /// 201 that stores the key as "unattested" is a real case).
    public struct AcceptedWhen: Sendable, Hashable {
        public enum Source: Sendable, Hashable {
            /// A JSON pointer into the answer's body.
            case pointer(JSONPointer)
            /// A response header (its name, compared without case).
            case header(String)
        }

        public var source: Source
        /// The value that means accepted: any JSON value at a pointer
        /// (numbers compared by value), a string for a header.
        public var equals: JSONValue

        public init(source: Source, equals: JSONValue) {
            self.source = source
            self.equals = equals
        }

        /// Where the signal is, for messages: `the body at /status`, `the header X-Attested`.
        public var place: String {
            switch source {
            case .pointer(let pointer): "the body at \(pointer.text.isEmpty ? "the root" : pointer.text)"
            case .header(let name): "the header \(name)"
            }
        }

        /// Nil when the answer says accepted; else what it says instead,
        /// as a phrase for the report (`the body at /status is "unattested", not "attested"`).
        public func refusal(body: [UInt8], headers: [String: String]) -> String? {
            let found: JSONValue?
            switch source {
            case .pointer(let pointer):
                guard let document = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
                    return "the body is not JSON, so \(place) is not \(equals.jsonText)"
                }
                found = pointer.resolve(document)
            case .header(let name):
                found = headers[name.lowercased()].map { .string($0.trimmingCharacters(in: .whitespaces)) }
            }
            guard let found else { return "\(place) is missing, not \(equals.jsonText)" }
            if Self.same(found, equals) { return nil }
            let shown = found.jsonText
            return "\(place) is \(shown.count > 80 ? String(shown.prefix(80)) + "…" : shown), not \(equals.jsonText)"
        }

        /// JSON equality with numbers compared by value, exactly (1, 1.0 and
        /// a uint 1 are one number; 2^53 and 2^53 + 1 are two, which as
        /// doubles they were not, issue 52 item 7).
        static func same(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
            switch (lhs, rhs) {
            case (.int(let left), .int(let right)): left == right
            case (.uint(let left), .uint(let right)): left == right
            case (.int(let signed), .uint(let unsigned)), (.uint(let unsigned), .int(let signed)):
                signed >= 0 && UInt64(signed) == unsigned
            case (.int(let integer), .double(let double)), (.double(let double), .int(let integer)):
                Int64(exactly: double) == integer
            case (.uint(let integer), .double(let double)), (.double(let double), .uint(let integer)):
                UInt64(exactly: double) == integer
            case (.double(let left), .double(let right)): left == right
            default: lhs == rhs
            }
        }
    }

    public var appId: String
    public var environment: AppAttestEnvironment
    public var baseURL: URL
    public var headers: [(name: String, value: ProbeTemplate)]
    public var challenge: ChallengeEndpoint
    public var attest: Endpoint
    public var assert: Endpoint
    public var clientData: ProbeTemplate
    public var clientDataHash: ClientDataHash
    public var timeoutSeconds: Double
    public var launchPolicy: LaunchPolicy?

    /// Default per-request deadline (docs/probe.md: 10 s).
    public static let defaultTimeoutSeconds = 10.0
    /// Longest per-request deadline accepted: a typo of minutes for seconds
    /// would make one hanging server hold a CI job for hours.
    public static let maxTimeoutSeconds = 600.0
    /// Largest config file read (a config is a few hundred bytes).
    public static let maxFileBytes = 256 * 1024
    /// Fields of the top-level object; anything else is a typo to report.
    static let fields: Set<String> = [
        "appId", "environment", "baseURL", "headers", "challenge", "attest", "assert", "clientData", "clientDataHash",
        "timeoutSeconds", "launchPolicy",
    ]

    /// Reads and checks the config at `path`.
    public static func load(path: String) throws -> ProbeConfig {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: maxFileBytes)
        } catch {
            throw ProbeConfigErrors(errors: [ProbeError(.configUnreadable, "config \(path): \(error.description)")])
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw ProbeConfigErrors(errors: [ProbeError(.configUnreadable, "config \(path): not JSON (\(error.localizedDescription))")])
        }
        return try parse(root, source: path)
    }

    /// Checks a config already read; `source` names it in the messages.
    public static func parse(_ root: JSONValue, source: String = "config") throws -> ProbeConfig {
        var reader = FieldReader(source: source)
        guard let object = root.objectValue else {
            throw ProbeConfigErrors(errors: [ProbeError(.configField, "\(source): the config must be a JSON object")])
        }
        reader.unknown(object, known: fields, at: "")
        let appId = reader.string(object, "appId", at: "") ?? ""
        let environment = reader.vocabulary(object, "environment", at: "", AppAttestEnvironment.self) ?? .development
        let baseURL = reader.baseURL(object["baseURL"])
        var headers: [(String, ProbeTemplate)] = []
        if let value = object["headers"] {
            if let map = value.objectValue {
                for (name, text) in map.sorted(by: { $0.key < $1.key }) {
                    guard let text = text.stringValue else { reader.fail("headers.\(name)", "must be a string"); continue }
                    guard HTTPToken.isValidName(name) else { reader.fail("headers.\(name)", "is not a valid header name"); continue }
                    headers.append((name, ProbeTemplate(text)))
                }
            } else {
                reader.fail("headers", "must be an object of strings")
            }
        }
        let challenge = reader.challengeEndpoint(object["challenge"])
        let attest = reader.endpoint(object["attest"], name: "attest")
        let assert = reader.endpoint(object["assert"], name: "assert")
        let clientData = reader.string(object, "clientData", at: "").map(ProbeTemplate.init) ?? ProbeTemplate("")
        let clientDataHash = reader.vocabulary(object, "clientDataHash", at: "", ClientDataHash.self) ?? .sha256
        var timeout = defaultTimeoutSeconds
        if let value = object["timeoutSeconds"] {
            if let number = value.doubleValue, number.isFinite, number > 0, number <= maxTimeoutSeconds {
                timeout = number
            } else {
                reader.fail("timeoutSeconds", "must be a number of seconds, more than 0 and at most \(Int(maxTimeoutSeconds))")
            }
        }
        let launchPolicy = object["launchPolicy"].flatMap { reader.launchPolicy($0) }
        guard reader.errors.isEmpty, let baseURL, let challenge, let attest, let assert else {
            throw ProbeConfigErrors(errors: reader.errors)
        }
        return ProbeConfig(
            appId: appId, environment: environment, baseURL: baseURL, headers: headers, challenge: challenge,
            attest: attest, assert: assert, clientData: clientData, clientDataHash: clientDataHash,
            timeoutSeconds: timeout, launchPolicy: launchPolicy)
    }

    /// Whether `baseURL`'s host is a loopback address (127.0.0.0/8, ::1, localhost).
    public var isLoopback: Bool { Self.isLoopback(host: baseURL.host ?? "") }

    static func isLoopback(host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in UInt8(part).map { String($0) == part } ?? false }
    }
}

/// HTTP token characters (RFC 9110 §5.6.2), for header names.
enum HTTPToken {
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
            }
    }
}

/// Reads fields of the config, collecting one message per bad field.
struct FieldReader {
    let source: String
    var errors: [ProbeError] = []

    mutating func fail(_ field: String, _ reason: String) {
        errors.append(ProbeError(.configField, "\(source): \(field): \(reason)"))
    }

    static func path(_ prefix: String, _ key: String) -> String { prefix.isEmpty ? key : "\(prefix).\(key)" }

    mutating func unknown(_ object: [String: JSONValue], known: Set<String>, at prefix: String) {
        for key in Set(object.keys).subtracting(known).sorted() {
            fail(Self.path(prefix, key), "unknown field (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    mutating func string(_ object: [String: JSONValue], _ key: String, at prefix: String, required: Bool = true) -> String? {
        guard let value = object[key] else {
            if required { fail(Self.path(prefix, key), "missing") }
            return nil
        }
        guard let text = value.stringValue, !text.isEmpty else {
            fail(Self.path(prefix, key), "must be a non-empty string")
            return nil
        }
        return text
    }

    mutating func vocabulary<T: RawRepresentable & CaseIterable>(
        _ object: [String: JSONValue], _ key: String, at prefix: String, _ type: T.Type, required: Bool = true
    ) -> T? where T.RawValue == String {
        guard let text = string(object, key, at: prefix, required: required) else { return nil }
        guard let value = T(rawValue: text) else {
            fail(Self.path(prefix, key), "must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
            return nil
        }
        return value
    }

    mutating func baseURL(_ value: JSONValue?) -> URL? {
        guard let text = value?.stringValue, !text.isEmpty else {
            fail("baseURL", value == nil ? "missing" : "must be a non-empty string")
            return nil
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else {
            fail(
                "baseURL", "must be an http or https URL with a host and no query, like http://127.0.0.1:8080 (got \"\(text.prefix(200))\")"
            )
            return nil
        }
        // A port out of range reached AsyncHTTPClient, which traps on it
        // (issue 44 item 3: "Not enough bits" for 99999).
        if let port = url.port, !(1...65_535).contains(port) {
            fail("baseURL", "port \(port) is not a TCP port (1 to 65535)")
            return nil
        }
        return url
    }

    mutating func method(_ object: [String: JSONValue], at prefix: String) -> String {
        guard let text = string(object, "method", at: prefix) else { return "POST" }
        guard HTTPToken.isValidName(text), text == text.uppercased() else {
            fail("\(prefix).method", "must be an HTTP method in capitals, like POST (got \"\(text)\")")
            return "POST"
        }
        return text
    }

    mutating func path(_ object: [String: JSONValue], at prefix: String) -> ProbeTemplate {
        guard let text = string(object, "path", at: prefix) else { return ProbeTemplate("/") }
        guard text.hasPrefix("/") else {
            fail("\(prefix).path", "must start with / (it is joined to baseURL)")
            return ProbeTemplate("/")
        }
        return ProbeTemplate(text)
    }

    mutating func challengeEndpoint(_ value: JSONValue?) -> ProbeConfig.ChallengeEndpoint? {
        guard let object = value?.objectValue else {
            fail("challenge", value == nil ? "missing" : "must be an object")
            return nil
        }
        unknown(object, known: ["method", "path", "pointer", "encoding", "body"], at: "challenge")
        let method = method(object, at: "challenge")
        let path = path(object, at: "challenge")
        var pointer = JSONPointer(tokens: [])
        if let value = object["pointer"] {
            if let text = value.stringValue, let parsed = JSONPointer(text) {
                pointer = parsed
            } else {
                fail("challenge.pointer", "must be a JSON pointer (RFC 6901), like /challenge")
            }
        } else {
            fail("challenge.pointer", "missing")
        }
        let encoding = vocabulary(object, "encoding", at: "challenge", ProbeConfig.Encoding.self) ?? .base64
        return ProbeConfig.ChallengeEndpoint(method: method, path: path, pointer: pointer, encoding: encoding, body: object["body"])
    }

    mutating func endpoint(_ value: JSONValue?, name: String) -> ProbeConfig.Endpoint? {
        guard let object = value?.objectValue else {
            fail(name, value == nil ? "missing" : "must be an object")
            return nil
        }
        unknown(object, known: ["method", "path", "body", "accepted", "refused", "acceptedWhen"], at: name)
        let method = method(object, at: name)
        let path = path(object, at: name)
        var body = JSONValue.object([:])
        if let value = object["body"] {
            if value.objectValue != nil { body = value } else { fail("\(name).body", "must be a JSON object") }
        } else {
            fail("\(name).body", "missing")
        }
        let accepted = statuses(object["accepted"], field: "\(name).accepted")
        let refused = statuses(object["refused"], field: "\(name).refused")
        let both = accepted.intersection(refused)
        if !both.isEmpty {
            fail("\(name).refused", "\(both.sorted().map(String.init).joined(separator: ", ")) is also in \(name).accepted")
        }
        var signal: ProbeConfig.AcceptedWhen?
        if let value = object["acceptedWhen"] { signal = acceptedWhen(value, at: "\(name).acceptedWhen") }
        return ProbeConfig.Endpoint(method: method, path: path, body: body, accepted: accepted, refused: refused, acceptedWhen: signal)
    }

    /// `{"pointer": "/status", "equals": "attested"}` or `{"header": "X-Attested", "equals": "1"}`.
    mutating func acceptedWhen(_ value: JSONValue, at field: String) -> ProbeConfig.AcceptedWhen? {
        guard let object = value.objectValue else {
            fail(
                field,
                "must be an object: {\"pointer\": \"/status\", \"equals\": \"attested\"} or {\"header\": \"X-Attested\", \"equals\": \"1\"}"
            )
            return nil
        }
        unknown(object, known: ["pointer", "header", "equals"], at: field)
        guard let equals = object["equals"] else {
            fail("\(field).equals", "missing: the value that means accepted")
            return nil
        }
        switch (object["pointer"], object["header"]) {
        case (let pointer?, nil):
            guard let text = pointer.stringValue, let parsed = JSONPointer(text) else {
                fail("\(field).pointer", "must be a JSON pointer (RFC 6901), like /status")
                return nil
            }
            return ProbeConfig.AcceptedWhen(source: .pointer(parsed), equals: equals)
        case (nil, let header?):
            guard let name = header.stringValue, HTTPToken.isValidName(name) else {
                fail("\(field).header", "must be a header name, like X-Attested")
                return nil
            }
            guard equals.stringValue != nil else {
                fail("\(field).equals", "must be a string when acceptedWhen names a header")
                return nil
            }
            return ProbeConfig.AcceptedWhen(source: .header(name), equals: equals)
        case (nil, nil):
            fail(field, "needs \"pointer\" or \"header\"")
            return nil
        case (_?, _?):
            fail(field, "has both \"pointer\" and \"header\"; give one")
            return nil
        }
    }

    mutating func statuses(_ value: JSONValue?, field: String) -> Set<Int> {
        guard let list = value?.arrayValue, !list.isEmpty else {
            fail(field, value == nil ? "missing" : "must be a non-empty list of HTTP status codes")
            return []
        }
        var codes: Set<Int> = []
        for item in list {
            guard let code = item.int64Value, (100...599).contains(code) else {
                fail(field, "must be a non-empty list of HTTP status codes (100 to 599), not \(item.jsonText)")
                return []
            }
            codes.insert(Int(code))
        }
        return codes
    }

    mutating func launchPolicy(_ value: JSONValue) -> LaunchPolicy? {
        guard let object = value.objectValue else {
            fail("launchPolicy", "must be an object")
            return nil
        }
        unknown(
            object, known: ["allowedValidationCategories", "minimumBundleVersion", "missingLaunchData", "allowedCodeDirectoryHashes"],
            at: "launchPolicy")
        var policy = LaunchPolicy()
        if let value = object["allowedValidationCategories"] {
            let numbers = value.arrayValue?.compactMap { $0.int64Value.flatMap(UInt32.init(exactly:)) }
            if let numbers, numbers.count == value.arrayValue?.count, !numbers.isEmpty {
                policy.allowedValidationCategories = Set(numbers)
            } else {
                fail("launchPolicy.allowedValidationCategories", "must be a non-empty list of category numbers (0 to 4294967295)")
            }
        }
        if let text = string(object, "minimumBundleVersion", at: "launchPolicy", required: false) {
            if let version = BundleVersion(text) {
                policy.minimumBundleVersion = version
            } else {
                fail("launchPolicy.minimumBundleVersion", "must be dot-separated decimal numbers, like 1.2.3 (got \"\(text)\")")
            }
        }
        if let value = object["allowedCodeDirectoryHashes"] {
            let hashes = value.arrayValue?.compactMap { item -> [UInt8]? in
                guard let text = item.stringValue else { return nil }
                return BinaryText.hex(text)
            }
            if let hashes, hashes.count == value.arrayValue?.count, !hashes.isEmpty,
                hashes.allSatisfy(LaunchPolicy.isCodeDirectoryHashEntry)
            {
                policy.allowedCodeDirectoryHashes = hashes
            } else {
                fail(
                    "launchPolicy.allowedCodeDirectoryHashes",
                    "must be a non-empty list of code-directory hashes in hex, each 32 bytes or 20 (64 or 40 hex digits)")
            }
        }
        policy.missingLaunchData = vocabulary(
            object, "missingLaunchData", at: "launchPolicy", LaunchPolicy.MissingLaunchData.self,
            required: false)
        return policy
    }
}

extension JSONValue {
    /// A number as a Double (integers included).
    var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .uint(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
