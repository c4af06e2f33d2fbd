import AppAttest
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
        if let key = assertionKey, (try? AssertionVerifier(appId: "A.b").verify(
            assertion: bytes, clientData: [], publicKey: key, previousCounter: 0)) != nil {
            problems.append("an assertion verified with a key that signed nothing")
        }
        return problems
    }

    /// Parses a receipt; a parsed receipt's payload must parse to the same fields again.
    public static func receipt(_ bytes: [UInt8]) -> [String] {
        guard let receipt = try? Receipt(bytes: bytes) else { return [] }
        guard let fields = try? Receipt.parsePayloadFields(receipt.payload) else {
            return ["payload of a parsed receipt does not parse again"]
        }
        return fields == receipt.fields ? [] : ["payload parses to different fields"]
    }
}
