import AppAttest
import SwiftASN1
import X509
import TestPKI

/// Apple's credential-certificate extensions besides the nonce, shaped as
/// in the 2026 sample (spec/app-attest.md, Amendments (round 3),
/// Certificate extensions that carry no verdict), with this suite's values.
enum AppleCertificateShapes {
    /// 1.2.840.113635.100.8.6: `SEQUENCE { [3] { OCTET STRING { SEQUENCE {
    /// UTF8String version, SEQUENCE OF SEQUENCE { UTF8String name, [1] {
    /// BOOLEAN } } } } } }`.
    static var extension86: [UInt8] {
        let flags = ["okd", "oa", "osgn"].map { name in
            TLV.sequence(TLV.node(0x0C, Array(name.utf8)), TLV.explicit(1, TLV.node(0x01, [0xFF])))
        }
        let inner = TLV.sequence(TLV.node(0x0C, Array("11".utf8)), TLV.node(0x30, flags.flatMap { $0 }))
        return TLV.sequence(TLV.explicit(3, TLV.octets(inner)))
    }

    /// 1.2.840.113635.100.8.7: a SEQUENCE of high-tag context nodes, each
    /// holding one OCTET STRING or INTEGER (OS version, build, platform…).
    static var extension87: [UInt8] {
        TLV.sequence(TLV.explicitTag(1400, TLV.octets(Array("27.0".utf8))), TLV.explicitTag(1104, TLV.integer(2)),
                     TLV.explicitTag(1403, TLV.octets(Array("24A325b".utf8))), TLV.explicitTag(1026, TLV.octets(Array("iphoneos".utf8))))
    }

    /// An Apple arc no sample carries.
    static let unknownOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 99]

    static func ext(_ oid: ASN1ObjectIdentifier, critical: Bool = false, _ value: [UInt8]) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: critical, value: value[...])
    }
}

extension AppAttestVectors {
    /// Credential certificates with extensions no step reads: valid unless
    /// an extension is critical, which RFC 5280 path validation must refuse
    /// when it does not process it (`certificateChainInvalid`).
    func certificateExtensionCases() -> [AttestationCase] {
        let shapes = AppleCertificateShapes.self
        let cases: [(String, String, [Certificate.Extension], AppAttestError.Code?)] = [
            ("apple-8-6-and-8-7", "1.2.840.113635.100.8.6 and .8.7 shaped as in Apple's 2026 sample, non-critical",
             [shapes.ext(AppleCertificateExtensions.oid86, shapes.extension86), shapes.ext(AppleCertificateExtensions.oid87, shapes.extension87)], nil),
            ("malformed-8-6", "1.2.840.113635.100.8.6 whose value is not DER (a SEQUENCE cut short), non-critical",
             [shapes.ext(AppleCertificateExtensions.oid86, [0x30, 0x05, 0x01])], nil),
            ("malformed-8-7", "1.2.840.113635.100.8.7 whose value is not DER, non-critical",
             [shapes.ext(AppleCertificateExtensions.oid87, [0xFF, 0x00, 0x12])], nil),
            ("empty-8-7", "1.2.840.113635.100.8.7 with an empty value, non-critical", [shapes.ext(AppleCertificateExtensions.oid87, [])], nil),
            ("unknown-non-critical", "an unknown extension 1.2.840.113635.100.8.99, non-critical",
             [shapes.ext(shapes.unknownOID, [0x05, 0x00])], nil),
            ("unknown-critical", "an unknown extension 1.2.840.113635.100.8.99 marked critical: path validation refuses what it does not process",
             [shapes.ext(shapes.unknownOID, critical: true, [0x05, 0x00])], .certificateChainInvalid),
            ("apple-8-6-critical", "1.2.840.113635.100.8.6 marked critical: no step processes it, so path validation refuses it",
             [shapes.ext(AppleCertificateExtensions.oid86, critical: true, shapes.extension86)], .certificateChainInvalid),
        ]
        return cases.map { name, comment, extensions, error in
            AttestationCase("certificate-extension::\(name)", comment, error) { $0.extraExtensions = extensions }
        }
    }
}
