import StrictCBOR
import SwiftASN1
import AppAttest
import ConformanceKit
import Foundation
import X509

/// The four App Attest families against the ``AppAttest`` reference.
package enum AppAttestSubject {
    static func bytes(_ input: JSONValue, _ key: String) throws -> [UInt8] {
        guard let text = input[key]?.stringValue, let value = BinaryText.base64(text) else {
            throw ReferenceInputError("\"\(key)\" must be standard base64")
        }
        return value
    }

    static func string(_ input: JSONValue, _ key: String) throws -> String {
        guard let text = input[key]?.stringValue else { throw ReferenceInputError("\"\(key)\" must be a string") }
        return text
    }

    static func time(_ input: JSONValue, _ key: String) throws -> Date {
        guard let date = RFC3339.parse(try string(input, key)) else { throw ReferenceInputError("\"\(key)\" must be RFC 3339") }
        return date
    }

    /// `trustAnchorsPem` (a list of PEM strings), or nil for the default anchor.
    static func anchors(_ input: JSONValue, _ key: String = "trustAnchorsPem") throws -> [Certificate]? {
        guard let value = input[key] else { return nil }
        guard let list = value.arrayValue else { throw ReferenceInputError("\(key) must be a list of PEM strings") }
        var anchors: [Certificate] = []
        for item in list {
            guard let pem = item.stringValue, let ders = PEM.certificates(in: pem) else {
                throw ReferenceInputError("\(key) holds a malformed PEM certificate")
            }
            for der in ders {
                guard let certificate = try? Certificate(derEncoded: der) else {
                    throw ReferenceInputError("\(key) certificate does not parse")
                }
                anchors.append(certificate)
            }
        }
        return anchors
    }

    static func rejected(_ error: AppAttestError) -> SubjectAnswer {
        SubjectAnswer(.invalid, error: error.code.rawValue)
    }

    /// The launch policy a vector input sets (spec/app-attest.md, Amendments
    /// (round 3)): `allowedValidationCategories` (a list of unsigned 32-bit
    /// integers), `minimumBundleVersion` (dot-separated decimals),
    /// `missingLaunchData` (`reject` | `allow`). Read strictly: a field of
    /// another type or value is an error of the vector, never ignored. nil
    /// when the input sets none of them.
    static func launchPolicy(_ input: JSONValue) throws -> LaunchPolicy? {
        guard LaunchPolicyFields.names.contains(where: { input[$0] != nil }) else { return nil }
        var policy = LaunchPolicy()
        if let value = input[LaunchPolicyFields.allowedValidationCategories] {
            guard let list = value.arrayValue else { throw ReferenceInputError("allowedValidationCategories must be a list of integers") }
            var categories = Set<UInt32>()
            for item in list {
                guard let category = LaunchPolicyFields.unsigned32(item) else {
                    throw ReferenceInputError("allowedValidationCategories holds \(item.jsonText), not an unsigned 32-bit integer")
                }
                categories.insert(category)
            }
            policy.allowedValidationCategories = categories
        }
        if let value = input[LaunchPolicyFields.minimumBundleVersion] {
            guard let text = value.stringValue, let version = BundleVersion(text) else {
                throw ReferenceInputError("minimumBundleVersion must be dot-separated decimal numbers, found \(value.jsonText)")
            }
            policy.minimumBundleVersion = version
        }
        if let value = input[LaunchPolicyFields.missingLaunchData] {
            guard let text = value.stringValue, let rule = LaunchPolicy.MissingLaunchData(rawValue: text) else {
                throw ReferenceInputError("missingLaunchData must be reject or allow, found \(value.jsonText)")
            }
            policy.missingLaunchData = rule
        }
        return policy
    }

    static func attestation(_ input: JSONValue) async throws -> SubjectAnswer {
        try await attestation(input, launchPolicy: try launchPolicy(input))
    }

    /// An attestation vector under `launchPolicy` in place of the input's own (tests run every vector with none and an empty one).
    package static func attestation(_ input: JSONValue, launchPolicy: LaunchPolicy?) async throws -> SubjectAnswer {
        let environmentName = try string(input, "environment")
        guard let environment = AppAttestEnvironment(rawValue: environmentName) else {
            throw ReferenceInputError("environment must be development or production")
        }
        let requireReceipt = input["requireReceipt"]?.boolValue ?? false
        let verifier = try AttestationVerifier(appId: try string(input, "appId"), environment: environment,
                                               trustAnchors: try anchors(input),
                                               receiptAnchors: try anchors(input, "receiptTrustAnchorsPem"),
                                               requireReceipt: requireReceipt, launchPolicy: launchPolicy)
        do {
            let verified = try await verifier.verify(
                attestationObject: try bytes(input, "attestationObject"), keyId: try bytes(input, "keyId"),
                clientDataHash: try bytes(input, "clientDataHash"), at: try time(input, "validationTime"))
            var output: [String: JSONValue] = [
                "publicKey": .string(BinaryText.base64(verified.publicKey)),
                "counter": .int(Int64(verified.counter)),
                "receipt": .string(BinaryText.base64(verified.receipt)),
                "receiptStatus": .string(verified.receiptStatus.description),
            ]
            if let extensions = verified.extensions { output["extensions"] = .string(extensions.diagnostic) }
            return SubjectAnswer(.valid, output: .object(output))
        } catch let error as AppAttestError {
            return rejected(error)
        }
    }

    static func assertion(_ input: JSONValue) throws -> SubjectAnswer {
        try assertion(input, launchPolicy: try launchPolicy(input))
    }

    /// An assertion vector under `launchPolicy` in place of the input's own.
    package static func assertion(_ input: JSONValue, launchPolicy: LaunchPolicy?) throws -> SubjectAnswer {
        guard let key = ES256.publicKey(try bytes(input, "publicKey")) else {
            throw ReferenceInputError("publicKey must be a P-256 key (X9.63 or SPKI)")
        }
        guard let previous = input["previousCounter"]?.int64Value, let counter = UInt32(exactly: previous) else {
            throw ReferenceInputError("previousCounter must be an unsigned 32-bit integer")
        }
        do {
            let verified = try AssertionVerifier(appId: try string(input, "appId"), launchPolicy: launchPolicy).verify(
                assertion: try bytes(input, "assertion"), clientData: try bytes(input, "clientData"),
                publicKey: key, previousCounter: counter)
            var output: [String: JSONValue] = ["counter": .int(Int64(verified.counter))]
            if let extensions = verified.extensions { output["extensions"] = .string(extensions.diagnostic) }
            return SubjectAnswer(.valid, output: .object(output))
        } catch let error as AppAttestError {
            return rejected(error)
        }
    }

    static func receipt(_ input: JSONValue) async throws -> SubjectAnswer {
        var clockSkew = ReceiptVerifier.defaultClockSkew
        if let value = input["clockSkew"] {
            guard let seconds = value.int64Value, seconds >= 0, seconds <= 86_400 else {
                throw ReferenceInputError("clockSkew must be a whole number of seconds in 0…86400")
            }
            clockSkew = TimeInterval(seconds)
        }
        let verifier = try ReceiptVerifier(trustAnchors: try anchors(input), clockSkew: clockSkew)
        let publicKey = input["publicKey"] == nil ? nil : try bytes(input, "publicKey")
        let appId = input["appId"] == nil ? nil : try string(input, "appId")
        let maxAge = input["maxAge"]?.int64Value.map(TimeInterval.init)
        do {
            let receipt = try await verifier.verify(receipt: try bytes(input, "receipt"), at: try time(input, "validationTime"),
                                                    appId: appId, publicKey: publicKey, maxAge: maxAge).receipt
            return SubjectAnswer(.valid, output: .object([
                "type": receipt.kind.map { .string($0.rawValue) } ?? .null,
                "appId": receipt.appId.map(JSONValue.string) ?? .null,
                "creationTime": receipt.creationTimeText.map(JSONValue.string) ?? .null,
                "riskMetric": receipt.riskMetric.map { .int(Int64($0)) } ?? .null,
            ]))
        } catch let error as AppAttestError {
            return rejected(error)
        }
    }

    static func deviceCheck(_ input: JSONValue) throws -> SubjectAnswer {
        guard let steps = input["steps"]?.arrayValue else { throw ReferenceInputError("devicecheck needs \"steps\"") }
        var server = DeviceCheckServer()
        var answers: [JSONValue] = []
        for (index, step) in steps.enumerated() {
            guard let op = step["op"]?.stringValue, let endpoint = DeviceCheckServer.Endpoint(rawValue: op) else {
                throw ReferenceInputError("step \(index): op must be one of "
                                          + DeviceCheckServer.Endpoint.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard let at = step["at"]?.stringValue.flatMap(RFC3339.parse) else {
                throw ReferenceInputError("step \(index): \"at\" must be RFC 3339")
            }
            let response = server.handle(endpoint, request: DeviceCheckJSON.request(step["request"]),
                                         team: step["team"]?.stringValue ?? "TEAM",
                                         authorized: step["authorized"]?.boolValue ?? true, at: at)
            let body = DeviceCheckJSON.body(response.body)
            answers.append(.object(["status": .int(Int64(response.status)), "body": body]))
        }
        return SubjectAnswer(.valid, output: .object(["steps": .array(answers)]))
    }
}

/// The JSON side of the DeviceCheck model, shared by the vector subject and
/// the local DeviceCheck service (`trustsuite serve devicecheck`).
public enum DeviceCheckJSON {
    /// The request fields of a JSON body; anything but an object has none.
    public static func request(_ body: JSONValue?) -> [String: DeviceCheckServer.Field] {
        var request: [String: DeviceCheckServer.Field] = [:]
        for (key, value) in body?.objectValue ?? [:] { request[key] = field(value) }
        return request
    }

    static func field(_ value: JSONValue) -> DeviceCheckServer.Field {
        switch value {
        case .string(let s): return .string(s)
        case .int(let i): return .integer(i)
        case .uint(let u): return u <= UInt64(Int64.max) ? .integer(Int64(u)) : .number(Double(u))
        case .double(let d): return .number(d)
        case .bool(let b): return .bool(b)
        case .null: return .null
        default: return .other
        }
    }

    /// The response body as the vectors write it: text (empty for none) or the bits object.
    public static func body(_ body: DeviceCheckServer.Body) -> JSONValue {
        switch body {
        case .empty: return .string("")
        case .text(let text): return .string(text)
        case .bits(let bit0, let bit1, let month):
            return .object(["bit0": .bool(bit0), "bit1": .bool(bit1), "last_update_time": .string(month)])
        }
    }
}
