import AppAttest
import VectorContract
import StrictCBOR
import Foundation
import SwiftASN1
import TrustSuiteSupport
import X509

/// The App Attest families against the ``AppAttest`` reference: this file
/// holds `app-attest-attestation` and what the App Attest subjects share.
package enum AppAttestSubject {
    static func time(_ text: String, _ key: String) throws -> Date {
        guard let date = RFC3339.parse(text) else { throw ReferenceInputError("\"\(key)\" must be RFC 3339") }
        return date
    }

    /// PEM anchors, or nil for the default anchor.
    static func anchors(_ list: [String]?, _ key: String) throws -> [Certificate]? {
        guard let list else { return nil }
        var anchors: [Certificate] = []
        for pem in list {
            guard let ders = PEM.certificates(in: pem) else { throw ReferenceInputError("\(key) holds a malformed PEM certificate") }
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

    /// The launch policy a vector input sets (docs/models/app-attest.md, Launch
    /// policy and macOS 27), nil when it sets none; the version's syntax and
    /// the allowlist entries' sizes are the reference's to judge.
    static func launchPolicy(_ input: some LaunchPolicyInput) throws -> LaunchPolicy? {
        guard input.setsLaunchPolicy else { return nil }
        var policy = LaunchPolicy()
        if let categories = input.allowedValidationCategories { policy.allowedValidationCategories = Set(categories) }
        if let text = input.minimumBundleVersion {
            guard let version = BundleVersion(text) else {
                throw ReferenceInputError("minimumBundleVersion must be dot-separated decimal numbers, found \"\(text)\"")
            }
            policy.minimumBundleVersion = version
        }
        if let rule = input.missingLaunchData { policy.missingLaunchData = try model(rule) }
        if let hashes = input.allowedCodeDirectoryHashes {
            for entry in hashes where !LaunchPolicy.isCodeDirectoryHashEntry(entry.bytes) {
                throw ReferenceInputError("allowedCodeDirectoryHashes entries must be 32 or 20 bytes, found \(entry.bytes.count)")
            }
            policy.allowedCodeDirectoryHashes = hashes.map(\.bytes)
        }
        return policy
    }

    static func attestation(_ input: AttestationFamily.Input) async throws -> SubjectAnswer {
        try await attestation(input, launchPolicy: try launchPolicy(input))
    }

    /// An attestation vector under `launchPolicy` in place of the input's own (tests run every vector with none and an empty one).
    package static func attestation(_ input: JSONValue, launchPolicy: LaunchPolicy?) async throws -> SubjectAnswer {
        try await attestation(AttestationFamily.read(input), launchPolicy: launchPolicy)
    }

    static func attestation(_ input: AttestationFamily.Input, launchPolicy: LaunchPolicy?) async throws -> SubjectAnswer {
        let verifier = try AttestationVerifier(
            appId: input.appId, environment: try model(input.environment),
            trustAnchors: try anchors(input.trustAnchorsPem, "trustAnchorsPem"),
            receiptAnchors: try anchors(input.receiptTrustAnchorsPem, "receiptTrustAnchorsPem"),
            requireReceipt: input.requireReceipt ?? false, launchPolicy: launchPolicy)
        do {
            let verified = try await verifier.verify(
                attestationObject: input.attestationObject.bytes, keyId: input.keyId.bytes,
                clientDataHash: input.clientDataHash.bytes, at: try time(input.validationTime, "validationTime"))
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
}
