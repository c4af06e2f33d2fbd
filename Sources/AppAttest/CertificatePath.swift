import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// RFC 5280 path validation at an injected time, shared by the attestation
/// chain (step 1) and the receipt signer's chain. Every certificate of the
/// trust store is an anchor: a store holding Apple's intermediate as well as
/// its root validates the same chains. On top of swift-certificates' policy
/// (which does not police key usage), every CA certificate of the path must
/// allow keyCertSign when it carries a key usage (RFC 5280 §4.2.1.3).
package enum CertificatePath {
    /// Why a chain was refused, for the caller's reason text.
    package enum Failure: Error {
        case noPath
        case caWithoutKeyCertSign(DistinguishedName)
    }

    /// The validated path, leaf first and the anchor last.
    package static func validate(
        leaf: Certificate, intermediates: [Certificate], anchors: [Certificate], at time: Date
    ) async -> Result<[Certificate], Failure> {
        // No certificate is valid at a time that is not a time.
        guard RFC3339.representable(time) else { return .failure(.noPath) }
        var verifier = Verifier(rootCertificates: CertificateStore(anchors)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates))
        guard case .validCertificate(let path) = result else { return .failure(.noPath) }
        let certificates = Array(path)
        for ca in certificates.dropFirst() where !allowsCertificateSigning(ca) {
            return .failure(.caWithoutKeyCertSign(ca.subject))
        }
        return .success(certificates)
    }

    /// A certificate as the verifiers read it: swift-certificates' parse,
    /// every extension it knows decoded, the TBS signature algorithm equal
    /// to the outer one, SEQUENCE and SET constructed and every other
    /// universal type primitive, and the strings of its issuer and subject names
    /// well formed for
    /// their type (UTF8String valid UTF-8, PrintableString and IA5String in
    /// their alphabets, BMPString of whole characters). swift-certificates
    /// repairs a UTF8String that is not UTF-8 instead of refusing it, so two
    /// names that differ in bytes could compare equal; OpenSSL refuses such
    /// a certificate (found by FuzzX509Differential).
    package static func certificate(derEncoded der: [UInt8]) throws -> Certificate {
        // One parse serves swift-certificates and the structure checks.
        let root = try DER.parse(der)
        let certificate = try Certificate(derEncoded: root)
        try checkStructure(root)
        // swift-certificates decodes an extension only when asked; every
        // one it knows must decode (OpenSSL marks a certificate with a
        // malformed one invalid; found by FuzzX509Differential: a key usage
        // BIT STRING with 23 unused bits).
        let extensions = certificate.extensions
        _ = try extensions.basicConstraints
        _ = try extensions.keyUsage
        _ = try extensions.extendedKeyUsage
        _ = try extensions.subjectKeyIdentifier
        _ = try extensions.authorityKeyIdentifier
        _ = try extensions.subjectAlternativeNames
        _ = try extensions.nameConstraints
        _ = try extensions.authorityInformationAccess
        return certificate
    }

    /// Why a certificate's structure was refused.
    struct StructureError: Error, CustomStringConvertible {
        let description: String
    }

    static func checkStructure(_ root: ASN1Node) throws {
        try checkConstruction(root)
        guard case .constructed(let top) = root.content, let tbs = top.first(where: { _ in true }),
            case .constructed(let fields) = tbs.content
        else { throw StructureError(description: "no TBSCertificate") }
        // RFC 5280 §4.1.1.2: the signature algorithm inside the TBS is the
        // one outside it (swift-certificates does not compare them; found by
        // FuzzX509Differential).
        let outer = top.dropFirst().first(where: { _ in true })
        let inner = fields.first { $0.identifier == .sequence }
        guard let outer, let inner, outer.encodedBytes == inner.encodedBytes else {
            throw StructureError(description: "the TBS signature algorithm is not the certificate's")
        }
        // The Names among the TBS fields: SEQUENCEs whose elements are SETs.
        for field in fields where field.identifier == .sequence {
            guard case .constructed(let rdns) = field.content, rdns.contains(where: { _ in true }),
                rdns.allSatisfy({ $0.identifier == .set })
            else { continue }
            for rdn in rdns {
                guard case .constructed(let attributes) = rdn.content else { continue }
                for attribute in attributes {
                    guard case .constructed(let parts) = attribute.content else { continue }
                    for value in parts.dropFirst() {
                        guard value.identifier.tagClass == .universal, nameStringTags.contains(value.identifier.tagNumber),
                            case .primitive(let bytes) = value.content
                        else {
                            throw StructureError(description: "a name holds a \(value.identifier), not a string")
                        }
                        guard stringIsWellFormed(value.identifier, bytes) else {
                            throw StructureError(description: "a name holds a \(value.identifier) that is not well formed")
                        }
                    }
                }
            }
        }
    }

    /// DER's construction rule for universal types: SEQUENCE and SET are
    /// constructed, every other universal type primitive (swift-asn1 keeps
    /// a primitive SEQUENCE as an opaque value inside a name; OpenSSL
    /// refuses it; found by FuzzX509Differential).
    static func checkConstruction(_ node: ASN1Node) throws {
        let universal = node.identifier.tagClass == .universal
        let collection = universal && (node.identifier.tagNumber == 16 || node.identifier.tagNumber == 17)
        switch node.content {
        case .constructed(let children):
            guard !universal || collection else { throw StructureError(description: "a constructed \(node.identifier)") }
            for child in children { try checkConstruction(child) }
        case .primitive:
            guard !collection else { throw StructureError(description: "a primitive \(node.identifier)") }
        }
    }

    /// The string types an attribute value of a name may have (X.520's
    /// DirectoryString and the IA5, Numeric, Printable, Visible, Teletex,
    /// Videotex, Graphic, General and Universal strings); a NULL, an
    /// application or context tag was kept by swift-certificates and refused
    /// by OpenSSL (found by FuzzX509Differential).
    static let nameStringTags: Set<UInt> = [12, 18, 19, 20, 21, 22, 25, 26, 27, 28, 30]

    static func stringIsWellFormed(_ identifier: ASN1Identifier, _ bytes: ArraySlice<UInt8>) -> Bool {
        switch identifier {
        case .utf8String: return String(validating: bytes, as: UTF8.self) != nil
        case .printableString:
            return bytes.allSatisfy { byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || Array(" '()+,-./:=?".utf8).contains(byte)
            }
        case .ia5String: return bytes.allSatisfy { $0 < 0x80 }
        case .bmpString: return bytes.count % 2 == 0
        default: return true
        }
    }

    /// True unless the certificate has a key usage without keyCertSign.
    static func allowsCertificateSigning(_ certificate: Certificate) -> Bool {
        keyUsage(of: certificate).map { $0?.keyCertSign ?? true } ?? false
    }

    /// True unless the certificate has a key usage without digitalSignature.
    static func allowsDigitalSignature(_ certificate: Certificate) -> Bool {
        keyUsage(of: certificate).map { $0?.digitalSignature ?? true } ?? false
    }

    /// The key usage: `.some(nil)` when absent, nil when the extension does not parse.
    package static func keyUsage(of certificate: Certificate) -> KeyUsage?? {
        do { return .some(try certificate.extensions.keyUsage) } catch { return nil }
    }

    /// True when basic constraints mark the certificate as a CA.
    package static func isCertificateAuthority(_ certificate: Certificate) -> Bool {
        do {
            guard let constraints = try certificate.extensions.basicConstraints else { return false }
            if case .isCertificateAuthority = constraints { return true }
            return false
        } catch {
            return true  // An unreadable extension is treated as the stricter reading.
        }
    }

    /// SHA-256 of the certificate's subjectPublicKeyInfo, its DER bytes as
    /// the certificate carries them: a key pin (as HPKP pins keys). Read
    /// from the TBS bytes, not serialized again from the parsed key: for a
    /// P-384 key that would cost a field inversion (about 32 µs, a fifteenth
    /// of a signature check) to convert the point back to affine form.
    package static func keyPin(_ certificate: Certificate) -> [UInt8]? {
        guard let tbs = try? DER.parse(certificate.tbsCertificateBytes),
            case .constructed(let fields) = tbs.content
        else { return nil }
        // TBSCertificate: [0] version (optional), serialNumber, signature,
        // issuer, validity, subject, subjectPublicKeyInfo, …
        var remaining = Array(fields)
        if let first = remaining.first, first.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            remaining.removeFirst()
        }
        guard remaining.count > 5, remaining[5].identifier == .sequence else { return nil }
        return Array(SHA256.hash(data: remaining[5].encodedBytes))
    }

    /// How many paths lead from `leaf` to an anchor through distinct
    /// intermediates, matching each issuer by name only (no signature is
    /// checked), with at most `maxLength` certificates, counted up to
    /// `limit`. Bounds the work path building may do before it starts:
    /// certificate authorities that all sign each other make it exponential.
    package static func candidatePaths(
        from leaf: Certificate, intermediates: [Certificate], anchors: [Certificate],
        maxLength: Int, limit: Int
    ) -> Int {
        var count = 0
        // Depth-first over (certificate, intermediates used), bounded by
        // maxLength and stopped at limit; an explicit stack, no recursion.
        var stack: [(certificate: Certificate, used: [Int], length: Int)] = [(leaf, [], 1)]
        while count < limit, let (certificate, used, length) = stack.popLast() {
            // The anchors that would end the path here.
            if length < maxLength { count += anchors.filter { $0.subject == certificate.issuer }.count }
            // Another intermediate, when an anchor could still follow it.
            guard length + 1 < maxLength else { continue }
            for (index, candidate) in intermediates.enumerated()
            where !used.contains(index) && candidate.subject == certificate.issuer {
                stack.append((candidate, used + [index], length + 1))
            }
        }
        return min(count, limit)
    }

    /// True when the certificate's subject and issuer are the same name (a root).
    static func isSelfIssued(_ certificate: Certificate) -> Bool { certificate.subject == certificate.issuer }

    static func describe(_ failure: Failure, at time: Date) -> String {
        switch failure {
        case .noPath: return "does not chain to a trust anchor at \(RFC3339.format(time))"
        case .caWithoutKeyCertSign(let name): return "CA certificate \(name) has a key usage without keyCertSign"
        }
    }
}
