import AppAttest
import SwiftASN1
import X509

/// The extensions of Apple's App Attest certificates, in Apple's order and
/// with Apple's criticality, with this suite's values (docs/models/app-attest.md,
/// Synthetic chains shaped like Apple's). Read from the real certificates:
/// the credential certificate and "Apple App Attestation CA 1" of Apple's
/// 2026 sample, the App Attestation root, and the receipt chain of every
/// real receipt ("Application Attestation Fraud Receipt Signing", "Apple
/// Application Integration CA 5 - G1", Apple Root CA - G3). A test chain
/// that carries them meets the bugs Apple's own chains meet: Go's
/// `x509.Verify` refusing a leaf with an Extended Key Usage that lacks
/// TLS-server usage, validators that choke on key usages or policies.
///
/// | certificate | extensions (c = critical) |
/// |---|---|
/// | credential | basic constraints (c, not a CA), key usage (c, digitalSignature nonRepudiation keyEncipherment dataEncipherment), extended key usage 1.2.840.113635.100.4.24, 8.5, 8.7, the nonce 8.2, 8.6 |
/// | attestation intermediate | basic constraints (c, CA, path length 0), authority key id, subject key id, key usage (c, keyCertSign cRLSign) |
/// | attestation root | basic constraints (c, CA), subject key id, key usage (c) |
/// | receipt signer | basic constraints (c, not a CA), authority key id, authority information access (OCSP), certificate policies 1.2.840.113635.100.5.1, subject key id, key usage (c, digitalSignature), the marker 12.15 |
/// | receipt intermediate | basic constraints (c, CA), authority key id, authority information access, CRL distribution points, subject key id, key usage (c), 1.2.840.113635.100.6.2.3 |
/// | receipt root | subject key id, basic constraints (c, CA), key usage (c) |
package enum AppleCertificateShapes {
    /// Apple's App Attest Extended Key Usage of the credential certificate (2026).
    package static let appAttestExtendedKeyUsage: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 4, 24]
    /// Apple's certificate policy of the receipt signer.
    package static let certificatePolicy: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 5, 1]
    /// The marker of Apple's Application Integration intermediates (value NULL).
    package static let integrationCAMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 3]
    /// CRL distribution points (RFC 5280 §4.2.1.13).
    package static let crlDistributionPoints: ASN1ObjectIdentifier = [2, 5, 29, 31]
    /// Certificate policies (RFC 5280 §4.2.1.4).
    package static let certificatePolicies: ASN1ObjectIdentifier = [2, 5, 29, 32]
    /// An Apple arc no sample carries.
    package static let unknownOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 99]

    /// Apple's key usage of the credential certificate (bits 0–3, `03 02 04 F0`).
    package static let credentialKeyUsage = KeyUsage(
        digitalSignature: true, nonRepudiation: true, keyEncipherment: true,
        dataEncipherment: true)
    /// The key usage of every CA of both chains.
    package static let caKeyUsage = KeyUsage(keyCertSign: true, cRLSign: true)

    package static func ext(_ oid: ASN1ObjectIdentifier, critical: Bool = false, _ value: [UInt8]) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: critical, value: value[...])
    }

    // MARK: Apple's informational extensions of the credential certificate

    /// 1.2.840.113635.100.8.5 as the 2026 sample shapes it: a SEQUENCE of
    /// high-tag context nodes holding INTEGERs, and the App ID in [1204].
    package static func extension85(appId: String) -> [UInt8] {
        let zero = TLV.integer(0)
        return TLV.sequence(
            TLV.explicit(4, TLV.integer(10)), TLV.explicitTag(1200, zero), TLV.explicitTag(1201, zero),
            TLV.explicitTag(1202, zero), TLV.explicitTag(1203, zero),
            TLV.explicitTag(1204, TLV.octets(Array(appId.utf8))), TLV.explicitTag(1206, TLV.integer(4)),
            TLV.explicitTag(1207, zero), TLV.explicitTag(1209, zero), TLV.explicitTag(1210, zero),
            TLV.explicitTag(1211, zero), TLV.explicit(10, zero))
    }

    /// 1.2.840.113635.100.8.6: `SEQUENCE { [3] { OCTET STRING { SEQUENCE {
    /// UTF8String version, SEQUENCE OF SEQUENCE { UTF8String name, [1] {
    /// BOOLEAN } } } } } }`.
    package static var extension86: [UInt8] {
        let flags = ["okd", "oa", "osgn"].map { name in
            TLV.sequence(TLV.node(0x0C, Array(name.utf8)), TLV.explicit(1, TLV.node(0x01, [0xFF])))
        }
        let inner = TLV.sequence(TLV.node(0x0C, Array("11".utf8)), TLV.node(0x30, flags.flatMap { $0 }))
        return TLV.sequence(TLV.explicit(3, TLV.octets(inner)))
    }

    /// 1.2.840.113635.100.8.7: a SEQUENCE of high-tag context nodes, each
    /// holding one OCTET STRING or INTEGER (OS version, build, platform…).
    package static var extension87: [UInt8] {
        TLV.sequence(
            TLV.explicitTag(1400, TLV.octets(Array("27.0".utf8))), TLV.explicitTag(1104, TLV.integer(2)),
            TLV.explicitTag(1403, TLV.octets(Array("24A325b".utf8))), TLV.explicitTag(1026, TLV.octets(Array("iphoneos".utf8))))
    }

    /// The credential certificate's extensions in the 2026 sample's order:
    /// basic constraints and key usage (critical), the Extended Key Usage,
    /// 8.5, 8.7, the nonce (8.2, `nonce` is its value; nil leaves it out)
    /// and 8.6, all but the first two non-critical.
    package static func credentialExtensions(nonce: [UInt8]?, appId: String) throws -> [Certificate.Extension] {
        var list = [
            try Certificate.Extension(BasicConstraints.notCertificateAuthority, critical: true),
            try Certificate.Extension(credentialKeyUsage, critical: true),
            try Certificate.Extension(ExtendedKeyUsage([ExtendedKeyUsage.Usage(oid: appAttestExtendedKeyUsage)]), critical: false),
            ext(AppleCertificateExtensions.oid85, extension85(appId: appId)),
            ext(AppleCertificateExtensions.oid87, extension87),
        ]
        if let nonce { list.append(ext(NonceExtension.oid, nonce)) }
        list.append(ext(AppleCertificateExtensions.oid86, extension86))
        return list
    }

    // MARK: Certificate authorities and the receipt signer

    /// Which of Apple's chains a CA certificate is shaped after.
    package enum Chain: Sendable { case attestation, receipt }

    /// The key identifier of `key`: SHA-1 of its public key (RFC 5280 §4.2.1.2).
    package static func keyIdentifier(_ key: Certificate.PublicKey) -> ArraySlice<UInt8> {
        SubjectKeyIdentifier(hash: key).keyIdentifier
    }

    static func subjectKeyIdentifier(_ key: Certificate.PublicKey) throws -> Certificate.Extension {
        try Certificate.Extension(SubjectKeyIdentifier(keyIdentifier: keyIdentifier(key)), critical: false)
    }

    static func authorityKeyIdentifier(_ issuerKey: Certificate.PublicKey) throws -> Certificate.Extension {
        try Certificate.Extension(AuthorityKeyIdentifier(keyIdentifier: keyIdentifier(issuerKey)), critical: false)
    }

    static func ocsp(_ path: String) throws -> Certificate.Extension {
        try Certificate.Extension(
            AuthorityInformationAccess([
                .init(
                    method: .ocspServer,
                    location: .uniformResourceIdentifier("http://ocsp.trustsuite.invalid/\(path)"))
            ]),
            critical: false)
    }

    /// `SEQUENCE { DistributionPoint { [0] { [0] { [6] uri } } } }`.
    static var crlDistribution: Certificate.Extension {
        let uri = TLV.node(0x86, Array("http://crl.trustsuite.invalid/testrootg3.crl".utf8))
        return ext(crlDistributionPoints, TLV.sequence(TLV.sequence(TLV.explicit(0, TLV.explicit(0, uri)))))
    }

    /// Apple's policy with a user notice and a CPS pointer, as the real signer carries them.
    static var policies: Certificate.Extension {
        let notice = TLV.sequence(
            TLV.oid([1, 3, 6, 1, 5, 5, 7, 2, 2]),
            TLV.sequence(TLV.node(0x0C, Array("TrustSuite test certificate: it certifies nothing; rely on it only in tests.".utf8))))
        let cps = TLV.sequence(
            TLV.oid([1, 3, 6, 1, 5, 5, 7, 2, 1]), TLV.node(0x16, Array("http://trustsuite.invalid/certificateauthority".utf8)))
        return ext(certificatePolicies, TLV.sequence(TLV.sequence(TLV.oid([1, 2, 840, 113635, 100, 5, 1]), TLV.sequence(notice, cps))))
    }

    /// The extensions of a CA certificate of `chain`: a root's when it is
    /// self-issued (`issuerKey` is its own key), else an intermediate's.
    package static func caExtensions(
        chain: Chain, key: Certificate.PublicKey, issuerKey: Certificate.PublicKey,
        keyUsage: KeyUsage
    ) throws -> [Certificate.Extension] {
        let usage = try Certificate.Extension(keyUsage, critical: true)
        let root = key == issuerKey
        switch (chain, root) {
        case (.attestation, true):
            return [
                try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true),
                try subjectKeyIdentifier(key), usage,
            ]
        case (.attestation, false):
            return [
                try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: 0), critical: true),
                try authorityKeyIdentifier(issuerKey), try subjectKeyIdentifier(key), usage,
            ]
        case (.receipt, true):
            return [
                try subjectKeyIdentifier(key),
                try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true), usage,
            ]
        case (.receipt, false):
            return [
                try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true),
                try authorityKeyIdentifier(issuerKey), try ocsp("ocsp03-testrootg3"), crlDistribution,
                try subjectKeyIdentifier(key), usage, ext(integrationCAMarker, [0x05, 0x00]),
            ]
        }
    }

    /// The receipt signer's extensions; `marker` adds the receipt-signing marker (1.2.840.113635.100.12.15).
    package static func receiptSignerExtensions(
        key: Certificate.PublicKey, issuerKey: Certificate.PublicKey, keyUsage: KeyUsage,
        marker: Bool
    ) throws -> [Certificate.Extension] {
        var list = [
            try Certificate.Extension(BasicConstraints.notCertificateAuthority, critical: true),
            try authorityKeyIdentifier(issuerKey), try ocsp("ocsp03-testintegration"), policies,
            try subjectKeyIdentifier(key), try Certificate.Extension(keyUsage, critical: true),
        ]
        if marker { list.append(ext(ReceiptVerifier.signerMarkerOID, [0x05, 0x00])) }
        return list
    }
}
