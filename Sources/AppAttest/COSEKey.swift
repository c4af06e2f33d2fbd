import Crypto
import StrictCBOR

/// A COSE_Key for EC2 P-256 / ES256, the only key App Attest produces:
/// `{1: 2, 3: -7, -1: 1, -2: x (32 bytes), -3: y (32 bytes)}`.
///
/// Strict: every label must be present with its exact value and type, no
/// other label is allowed, x and y keep their leading zeros (exactly 32
/// bytes each), compressed points (a boolean y) are rejected, and the point
/// must lie on the curve.
public struct COSEKey: Sendable, Hashable {
    /// The key as an X9.63 uncompressed point (0x04 ‖ x ‖ y).
    public let x963: [UInt8]

    public var x: ArraySlice<UInt8> { x963[1..<33] }
    public var y: ArraySlice<UInt8> { x963[33..<65] }

    /// Labels and values required by RFC 9053 for EC2 P-256 ES256.
    static let keyType: Int64 = 2, algorithm: Int64 = -7, curve: Int64 = 1

    public init(cbor value: CBORItem) throws(AppAttestError) {
        guard let entries = value.mapValue else {
            throw Self.malformed("credential public key is not a CBOR map")
        }
        var x: [UInt8]? = nil, y: [UInt8]? = nil
        var seen = Set<Int64>()
        for entry in entries {
            guard let label = try? entry.key.int64Value() else {
                throw Self.malformed("COSE_Key label \(entry.key.diagnostic) is not an integer")
            }
            seen.insert(label)
            switch label {
            case 1: try Self.expect(entry.value, Self.keyType, "kty (1) must be 2 (EC2)")
            case 3: try Self.expect(entry.value, Self.algorithm, "alg (3) must be -7 (ES256)")
            case -1: try Self.expect(entry.value, Self.curve, "crv (-1) must be 1 (P-256)")
            case -2: x = try Self.coordinate(entry.value, "x (-2)")
            case -3: y = try Self.coordinate(entry.value, "y (-3)")
            default: throw Self.malformed("unexpected COSE_Key label \(label)")
            }
        }
        for required: Int64 in [1, 3, -1, -2, -3] where !seen.contains(required) {
            throw Self.malformed("COSE_Key label \(required) missing")
        }
        guard let x, let y else { throw Self.malformed("COSE_Key coordinates missing") }
        let point = [0x04] + x + y
        guard (try? P256.Signing.PublicKey(x963Representation: point)) != nil else {
            throw Self.malformed("COSE_Key point is not on P-256")
        }
        self.x963 = point
    }

    /// The swift-crypto public key.
    public var publicKey: P256.Signing.PublicKey? { try? P256.Signing.PublicKey(x963Representation: x963) }

    static func malformed(_ reason: String) -> AppAttestError { AppAttestError(.malformedCredentialPublicKey, reason) }

    static func expect(_ value: CBORItem, _ wanted: Int64, _ reason: String) throws(AppAttestError) {
        guard let number = try? value.int64Value(), number == wanted else { throw malformed(reason) }
    }

    static func coordinate(_ value: CBORItem, _ name: String) throws(AppAttestError) -> [UInt8] {
        guard let bytes = value.byteSlice else {
            throw malformed("\(name) must be a byte string (compressed points are not accepted)")
        }
        guard bytes.count == 32 else { throw malformed("\(name) must be exactly 32 bytes, found \(bytes.count)") }
        return Array(bytes)
    }
}
