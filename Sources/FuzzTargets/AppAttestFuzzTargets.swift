import AppAttest
import AppAttestGenerator
import TestPKI
import Crypto
import StrictCBOR

extension FuzzTargets {
    /// A fixed P-256 key for running the assertion verifier on fuzz input
    /// (every signature fails; the point is to run every parsing path).
    static let assertionKey: P256.Signing.PublicKey? =
        try? P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0x01, count: 32)).publicKey

    /// Parses an attestation object; when it parses, the object must be CTAP2
    /// canonical CBOR (it re-encodes to itself) and keep the exact authData bytes.
    public static func attestation(_ bytes: [UInt8]) -> [String] {
        guard let object = try? AttestationObject(bytes: bytes) else { return [] }
        var problems: [String] = []
        guard let value = try? CBORDecoder(mode: .ctap2).decode(bytes) else {
            return ["attestation parsed but its CBOR is rejected in ctap2 mode"]
        }
        if CBOREncoder.canonical(value) != bytes { problems.append("accepted attestation is not canonical CBOR") }
        if value["authData"]?.bytesValue != object.authenticatorData.bytes {
            problems.append("authenticator data bytes differ from the CBOR value")
        }
        return problems
    }

    /// Parses an assertion and runs the verifier with a fixed key; a parsed
    /// assertion must be canonical and its authenticator data at least 37 bytes.
    public static func assertion(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        if let assertion = try? Assertion(bytes: bytes) {
            if assertion.authenticatorData.bytes.count < AuthenticatorData.fixedLength {
                problems.append("authenticator data shorter than 37 bytes accepted")
            }
            if let value = try? CBORDecoder(mode: .ctap2).decode(bytes), CBOREncoder.canonical(value) != bytes {
                problems.append("accepted assertion is not canonical CBOR")
            }
        }
        if let key = assertionKey,
            (try? AssertionVerifier(appId: "A.b").verify(
                assertion: bytes, clientData: [], publicKey: key, previousCounter: 0)) != nil
        {
            problems.append("an assertion verified with a key that signed nothing")
        }
        return problems + resignedAssertion(bytes)
    }

    /// The launch policy of the re-signed assertions: categories 1 and 2,
    /// bundle version 1 or later, missing data refused.
    static let resignedMinimumVersion = BundleVersion("1")
    static let resignedLaunchPolicy = LaunchPolicy(allowedValidationCategories: [1, 2], minimumBundleVersion: resignedMinimumVersion)

    /// Re-signing: the authenticator data of the input (the input itself
    /// when it is no assertion) is signed with the fixed key over
    /// SHA-256(authData ‖ SHA-256(clientData)), so verification gets past
    /// the signature to steps 4–6 and the launch policy (docs/models/app-attest.md).
    /// The verdict must follow from the raw fields: rpIdHash at 0..<32, the
    /// counter at 33..<37 above the stored 1, and launch data the policy allows.
    static func resignedAssertion(_ bytes: [UInt8]) -> [String] {
        guard let (authData, verdict) = resignAssertion(bytes) else { return [] }
        let rpOK = authData.count >= 32 && Array(authData[0..<32]) == Array(SHA256.hash(data: Array(FuzzWorld.appId.utf8)))
        let counter = authData.count >= 37 ? authData[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : 0
        switch verdict {
        case .success(let verified):
            var problems: [String] = []
            if !rpOK { problems.append("re-signed assertion verified with a wrong rpIdHash") }
            if counter <= 1 { problems.append("re-signed assertion verified with counter \(counter), not above 1") }
            if verified.authenticatorData.bytes != authData { problems.append("verified other authenticator data") }
            let launch = verified.authenticatorData.launchData
            if !(launch?.validationCategory.map { [1, 2].contains($0) } ?? false) {
                problems.append("verified launch data without an allowed category")
            }
            let version = launch?.bundleVersion.flatMap(BundleVersion.init)
            if let minimum = resignedMinimumVersion, !(version.map { $0 >= minimum } ?? false) {
                problems.append("verified launch data without a bundle version of at least 1")
            }
            return problems
        case .failure(let error):
            switch error.code {
            case .signatureInvalid: return ["signatureInvalid for an assertion the key signed"]
            case .rpIdMismatch where rpOK: return ["rpIdMismatch for the right rpIdHash"]
            case .counterNotIncreasing where rpOK && counter > 1: return ["counterNotIncreasing for counter \(counter) above 1"]
            default: return []
            }
        }
    }

    /// The authenticator data the re-signing stage used and the verifier's verdict.
    static func resignAssertion(_ bytes: [UInt8]) -> ([UInt8], Result<VerifiedAssertion, AppAttestError>)? {
        guard let key = assertionSigningKey else { return nil }
        let authData = (try? Assertion(bytes: bytes))?.authenticatorData.bytes ?? bytes
        let clientData = Array("trustsuite".utf8)
        var hasher = SHA256()
        hasher.update(data: authData)
        hasher.update(data: Array(SHA256.hash(data: clientData)))
        guard let signature = try? key.signature(for: Array(hasher.finalize())) else { return nil }
        let object = SoftwareCA.assertionObject(signature: Array(signature.derRepresentation), authenticatorData: authData)
        let verifier = AssertionVerifier(appId: FuzzWorld.appId, launchPolicy: resignedLaunchPolicy)
        do {
            return (
                authData,
                .success(
                    try verifier.verify(
                        assertion: object, clientData: clientData, publicKey: key.publicKey,
                        previousCounter: 1))
            )
        } catch {
            return (authData, .failure(error))
        }
    }

    /// The private half of the re-signing key (a fixed scalar).
    static let assertionSigningKey: P256.Signing.PrivateKey? = try? P256.Signing.PrivateKey(
        rawRepresentation: [UInt8](repeating: 0x02, count: 32))

    /// Parses a receipt; a parsed receipt's payload must parse to the same fields again.
    public static func receipt(_ bytes: [UInt8]) -> [String] {
        guard let receipt = try? Receipt(bytes: bytes) else { return [] }
        guard let fields = try? Receipt.parsePayloadFields(receipt.payload) else {
            return ["payload of a parsed receipt does not parse again"]
        }
        return fields == receipt.fields ? [] : ["payload parses to different fields"]
    }
}
