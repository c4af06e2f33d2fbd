import StrictCBOR

/// The App Attest attestation object (docs/models/app-attest.md):
/// `{"fmt": "apple-appattest", "attStmt": {"x5c": [credCert, intermediate],
/// "receipt": bytes}, "authData": bytes}`, decoded in ctap2 mode.
public struct AttestationObject: Sendable, Hashable {
    /// Largest attestation object accepted (real ones are about 5 KiB).
    public static let maxLength = 64 * 1024
    /// The only format App Attest uses.
    public static let format = "apple-appattest"

    public let format: String
    /// The certificates of `x5c`, DER, in the order sent (credential certificate first).
    public let certificates: [[UInt8]]
    /// The receipt: PKCS#7 (BER), opaque here.
    public let receipt: [UInt8]
    public let authenticatorData: AuthenticatorData

    public init(bytes: [UInt8]) throws(AppAttestError) {
        guard bytes.count <= Self.maxLength else {
            throw Self.malformed("attestation object of \(bytes.count) bytes exceeds \(Self.maxLength)")
        }
        let root: CBORItem
        do {
            root = try CBORDecoder(mode: .ctap2).decode(bytes)
        } catch {
            throw Self.malformed("CBOR: \(error)")
        }
        guard let entries = root.mapValue else { throw Self.malformed("top level is not a map") }
        for entry in entries {
            guard let key = entry.key.textValue, ["fmt", "attStmt", "authData"].contains(key) else {
                throw Self.malformed("unexpected key \(entry.key.diagnostic)")
            }
        }
        guard let format = root["fmt"]?.textValue else { throw Self.malformed("\"fmt\" missing or not text") }
        guard let statement = root["attStmt"], statement.mapValue != nil else {
            throw Self.malformed("\"attStmt\" missing or not a map")
        }
        guard let authData = root["authData"]?.byteSlice else {
            throw Self.malformed("\"authData\" missing or not a byte string")
        }
        self.format = format
        guard format == Self.format else {
            throw AppAttestError(.unsupportedFormat, "fmt is \"\(format)\", expected \"\(Self.format)\"")
        }
        guard let x5c = statement["x5c"] else { throw AppAttestError(.missingCertificates, "attStmt has no x5c") }
        guard let items = x5c.arrayValue else { throw Self.malformed("x5c is not an array") }
        var certificates: [[UInt8]] = []
        for item in items {
            guard let der = item.byteSlice else { throw Self.malformed("x5c holds a non-byte-string item") }
            certificates.append(Array(der))
        }
        guard let receipt = statement["receipt"]?.byteSlice else {
            throw Self.malformed("attStmt \"receipt\" missing or not a byte string")
        }
        self.certificates = certificates
        self.receipt = Array(receipt)
        self.authenticatorData = try AuthenticatorData(bytes: Array(authData))
    }

    static func malformed(_ reason: String) -> AppAttestError { AppAttestError(.malformedAttestationObject, reason) }
}
