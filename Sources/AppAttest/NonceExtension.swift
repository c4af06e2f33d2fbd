import SwiftASN1
import X509

/// The App Attest nonce extension of the credential certificate, OID
/// 1.2.840.113635.100.8.2: DER `SEQUENCE { [1] EXPLICIT OCTET STRING (32) }`
/// (step 4). Parsed with swift-asn1, never sliced at a fixed offset.
public enum NonceExtension {
    public static let oid: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]

    /// The 32 nonce bytes from a certificate, or `nonceExtensionMissing`
    /// when the extension is absent or not of that exact shape.
    public static func nonce(in certificate: Certificate) throws(AppAttestError) -> [UInt8] {
        guard let ext = certificate.extensions[oid: oid] else {
            throw AppAttestError(.nonceExtensionMissing, "credential certificate has no extension \(oid)")
        }
        return try nonce(fromExtensionValue: Array(ext.value))
    }

    public static func nonce(fromExtensionValue value: [UInt8]) throws(AppAttestError) -> [UInt8] {
        do {
            let root = try DER.parse(value)
            return try DER.sequence(root, identifier: .sequence) { nodes in
                guard let tagged = nodes.next(), tagged.identifier == ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific),
                    case .constructed(let inner) = tagged.content
                else {
                    throw ASN1Error.invalidASN1Object(reason: "expected [1] EXPLICIT")
                }
                var innerNodes = inner.makeIterator()
                guard let octetNode = innerNodes.next(), innerNodes.next() == nil else {
                    throw ASN1Error.invalidASN1Object(reason: "[1] must hold exactly one OCTET STRING")
                }
                let octets = try ASN1OctetString(derEncoded: octetNode)
                guard nodes.next() == nil else { throw ASN1Error.invalidASN1Object(reason: "extra fields") }
                guard octets.bytes.count == 32 else { throw ASN1Error.invalidASN1Object(reason: "nonce is not 32 bytes") }
                return Array(octets.bytes)
            }
        } catch {
            throw AppAttestError(.nonceExtensionMissing, "nonce extension is not SEQUENCE { [1] EXPLICIT OCTET STRING (32) }: \(error)")
        }
    }
}
