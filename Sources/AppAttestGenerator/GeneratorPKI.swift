import AppAttest
import Crypto
import Foundation
import SwiftASN1
import X509

/// Deterministic keys and an Apple-shaped test PKI for the vector generator:
/// a P-384 root and intermediate issuing P-256 credential certificates with
/// the nonce extension, and a receipt-signing chain. Keys come from the seed,
/// so a seed always yields the same PKI (ECDSA signatures are randomized,
/// so the bytes of signatures differ between runs).
struct GeneratorPKI {
    let seed: UInt64
    /// The validation time of every baseline vector.
    let now: Date

    init(seed: UInt64, now: Date) {
        self.seed = seed
        self.now = now
    }

    func bytes(_ label: String, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var counter = 0
        while out.count < count {
            out += Array(SHA256.hash(data: Array("trustsuite/\(seed)/\(label)/\(counter)".utf8)))
            counter += 1
        }
        return Array(out.prefix(count))
    }

    func p256(_ label: String) -> P256.Signing.PrivateKey {
        for attempt in 0..<100 {
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes("\(label)#\(attempt)", count: 32)) { return key }
        }
        return P256.Signing.PrivateKey()
    }

    func p384(_ label: String) -> P384.Signing.PrivateKey {
        for attempt in 0..<100 {
            if let key = try? P384.Signing.PrivateKey(rawRepresentation: bytes("\(label)#\(attempt)", count: 48)) { return key }
        }
        return P384.Signing.PrivateKey()
    }

    static func name(_ commonName: String) throws -> DistinguishedName {
        try DistinguishedName {
            CommonName(commonName)
            OrganizationName("TrustSuite Test PKI")
            StateOrProvinceName("California")
        }
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    static func pem(_ der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines: [String] = ["-----BEGIN CERTIFICATE-----"]
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<end]))
            index = end
        }
        lines.append("-----END CERTIFICATE-----")
        return lines.joined(separator: "\n")
    }

    /// A CA certificate (P-384) valid from 2020 to 2045.
    func caCertificate(
        subject: String, key: P384.Signing.PrivateKey, issuer: String, issuerKey: P384.Signing.PrivateKey,
        serial: Int, notBefore: Date? = nil, notAfter: Date? = nil
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: .init(serial), publicKey: .init(key.publicKey),
            notValidBefore: notBefore ?? Date(timeIntervalSince1970: 1_584_556_800),
            notValidAfter: notAfter ?? Date(timeIntervalSince1970: 2_373_235_200),
            issuer: try Self.name(issuer), subject: try Self.name(subject), signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(issuerKey))
    }

    /// An end-entity certificate with a P-256 key and optional raw extensions.
    func leafCertificate(
        subject: String, key: P256.Signing.PublicKey, issuer: String, issuerKey: P384.Signing.PrivateKey,
        serial: Int, notBefore: Date, notAfter: Date, extra: [Certificate.Extension]
    ) throws -> Certificate {
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        for item in extra { try extensions.append(item) }
        return try Certificate(
            version: .v3, serialNumber: .init(serial), publicKey: .init(key), notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: try Self.name(issuer), subject: try Self.name(subject),
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(issuerKey))
    }
}

/// The attestation side of the test PKI.
struct AttestationPKI {
    static let rootName = "TrustSuite Test App Attestation Root CA"
    static let intermediateName = "TrustSuite Test App Attestation CA 1"

    let rootKey: P384.Signing.PrivateKey
    let intermediateKey: P384.Signing.PrivateKey
    let root: [UInt8]
    let intermediate: [UInt8]
    /// An unrelated root with the same name, and its intermediate (attacker).
    let attackerRoot: [UInt8]
    let attackerIntermediateKey: P384.Signing.PrivateKey
    let attackerIntermediate: [UInt8]

    init(_ pki: GeneratorPKI) throws {
        rootKey = pki.p384("attestation-root")
        intermediateKey = pki.p384("attestation-intermediate")
        root = try GeneratorPKI.der(pki.caCertificate(subject: Self.rootName, key: rootKey, issuer: Self.rootName,
                                                       issuerKey: rootKey, serial: 1))
        intermediate = try GeneratorPKI.der(pki.caCertificate(subject: Self.intermediateName, key: intermediateKey,
                                                               issuer: Self.rootName, issuerKey: rootKey, serial: 2))
        let attackerRootKey = pki.p384("attacker-root")
        attackerIntermediateKey = pki.p384("attacker-intermediate")
        attackerRoot = try GeneratorPKI.der(pki.caCertificate(subject: Self.rootName, key: attackerRootKey,
                                                               issuer: Self.rootName, issuerKey: attackerRootKey, serial: 1))
        attackerIntermediate = try GeneratorPKI.der(pki.caCertificate(
            subject: Self.intermediateName, key: attackerIntermediateKey, issuer: Self.rootName,
            issuerKey: attackerRootKey, serial: 2))
    }
}

/// The receipt side: "Fraud Receipt Signing" ← "Application Integration CA 5" ← "Root CA - G3" shapes.
struct ReceiptPKI {
    static let rootName = "TrustSuite Test Root CA - G3"
    static let intermediateName = "TrustSuite Test Application Integration CA 5 - G1"
    static let signerName = "TrustSuite Test Application Attestation Fraud Receipt Signing"

    let rootKey: P384.Signing.PrivateKey
    let intermediateKey: P384.Signing.PrivateKey
    let signerKey: P256.Signing.PrivateKey
    let root: [UInt8]
    let intermediate: [UInt8]
    let signer: [UInt8]
    let signerCertificate: Certificate
    let signerNotBefore: Date
    let signerNotAfter: Date

    init(_ pki: GeneratorPKI) throws {
        rootKey = pki.p384("receipt-root")
        intermediateKey = pki.p384("receipt-intermediate")
        signerKey = pki.p256("receipt-signer")
        root = try GeneratorPKI.der(pki.caCertificate(subject: Self.rootName, key: rootKey, issuer: Self.rootName,
                                                       issuerKey: rootKey, serial: 11))
        intermediate = try GeneratorPKI.der(pki.caCertificate(subject: Self.intermediateName, key: intermediateKey,
                                                               issuer: Self.rootName, issuerKey: rootKey, serial: 12))
        signerNotBefore = pki.now.addingTimeInterval(-180 * 86_400)
        signerNotAfter = pki.now.addingTimeInterval(365 * 86_400)
        signerCertificate = try pki.leafCertificate(
            subject: Self.signerName, key: signerKey.publicKey, issuer: Self.intermediateName, issuerKey: intermediateKey,
            serial: 13, notBefore: signerNotBefore, notAfter: signerNotAfter, extra: [])
        signer = try GeneratorPKI.der(signerCertificate)
    }
}
