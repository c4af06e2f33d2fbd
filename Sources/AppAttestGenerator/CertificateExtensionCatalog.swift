import VectorContract
import AppAttest
import SwiftASN1
import X509
import TestPKI

extension AppAttestVectors {
    /// The flag of the vector that isolates Apple's Extended Key Usage.
    static let extendedKeyUsageFlag = FlagNotes.extendedKeyUsage

    /// Replaces the extension `oid` of Apple's list with `replacement` (nil: removes it), in place.
    static func replacing(_ oid: ASN1ObjectIdentifier, with replacement: Certificate.Extension?)
        -> ([Certificate.Extension]) -> [Certificate.Extension]
    {
        { list in list.compactMap { $0.oid == oid ? replacement : $0 } }
    }

    /// Keeps only the extensions of Apple's list whose OID is in `oids`.
    static func keeping(_ oids: [ASN1ObjectIdentifier]) -> ([Certificate.Extension]) -> [Certificate.Extension] {
        { list in list.filter { oids.contains($0.oid) } }
    }

    /// Credential certificates with extensions no step reads: valid unless
    /// an extension is critical, which RFC 5280 path validation must refuse
    /// when it does not process it (`certificateChainInvalid`). Every
    /// generated credential certificate carries Apple's extensions
    /// (``AppleCertificateShapes``); these cases change one of them.
    func certificateExtensionCases() -> [AttestationCase] {
        let shapes = AppleCertificateShapes.self
        let eku = ASN1ObjectIdentifier.X509ExtensionID.extendedKeyUsage
        let basics = [
            ASN1ObjectIdentifier.X509ExtensionID.basicConstraints, ASN1ObjectIdentifier.X509ExtensionID.keyUsage, NonceExtension.oid,
        ]
        typealias Edit = ([Certificate.Extension]) -> [Certificate.Extension]
        let cases: [(String, String, [String], Edit?, [Certificate.Extension], AppAttestError.Code?)] = [
            (
                "apple-8-6-and-8-7",
                "1.2.840.113635.100.8.6 and .8.7 shaped as in Apple's 2026 sample, non-critical, as every generated credential certificate carries them",
                [], nil, [], nil
            ),
            (
                "malformed-8-6", "1.2.840.113635.100.8.6 whose value is not DER (a SEQUENCE cut short), non-critical", [],
                Self.replacing(AppleCertificateExtensions.oid86, with: shapes.ext(AppleCertificateExtensions.oid86, [0x30, 0x05, 0x01])),
                [], nil
            ),
            (
                "malformed-8-7", "1.2.840.113635.100.8.7 whose value is not DER, non-critical", [],
                Self.replacing(AppleCertificateExtensions.oid87, with: shapes.ext(AppleCertificateExtensions.oid87, [0xFF, 0x00, 0x12])),
                [], nil
            ),
            (
                "empty-8-7", "1.2.840.113635.100.8.7 with an empty value, non-critical", [],
                Self.replacing(AppleCertificateExtensions.oid87, with: shapes.ext(AppleCertificateExtensions.oid87, [])), [], nil
            ),
            (
                "unknown-non-critical", "an unknown extension 1.2.840.113635.100.8.99, non-critical", [], nil,
                [shapes.ext(shapes.unknownOID, [0x05, 0x00])], nil
            ),
            (
                "unknown-critical",
                "an unknown extension 1.2.840.113635.100.8.99 marked critical: path validation refuses what it does not process",
                [], nil, [shapes.ext(shapes.unknownOID, critical: true, [0x05, 0x00])], .certificateChainInvalid
            ),
            (
                "apple-8-6-critical", "1.2.840.113635.100.8.6 marked critical: no step processes it, so path validation refuses it", [],
                Self.replacing(
                    AppleCertificateExtensions.oid86, with: shapes.ext(AppleCertificateExtensions.oid86, critical: true, shapes.extension86)
                ),
                [], .certificateChainInvalid
            ),
            // The Extended Key Usage isolated (issue 43): Apple's 2026 leaf
            // carries 1.2.840.113635.100.4.24 and no TLS usage; Go's
            // x509.Verify, given no KeyUsages, demands serverAuth of a leaf
            // that has an EKU, and refuses Apple's own certificates.
            (
                "without-eku",
                "Apple's credential certificate without its Extended Key Usage (as the 2024 sample): a verifier that refuses the EKU passes this one",
                [],
                Self.replacing(eku, with: nil), [], nil
            ),
            (
                "eku-app-attest-only",
                "only basic constraints, key usage, the nonce and Apple's Extended Key Usage 1.2.840.113635.100.4.24 (no TLS-server usage): valid",
                [Self.extendedKeyUsageFlag], Self.keeping(basics + [eku]), [], nil
            ),
            (
                "minimal", "only basic constraints, key usage and the nonce, Apple's informational extensions and EKU removed: valid", [],
                Self.keeping(basics), [], nil
            ),
        ]
        return cases.map { name, comment, flags, edit, extra, error in
            AttestationCase("certificate-extension::\(name)", comment, error, flags: flags) {
                $0.editLeafExtensions = edit
                $0.extraExtensions = extra
            }
        }
    }
}
