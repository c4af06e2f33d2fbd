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
package struct GeneratorPKI {
    package let seed: UInt64
    /// The validation time of every baseline vector.
    package let now: Date

    package init(seed: UInt64, now: Date) {
        self.seed = seed
        self.now = now
    }

    package func bytes(_ label: String, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var counter = 0
        while out.count < count {
            out += Array(SHA256.hash(data: Array("trustsuite/\(seed)/\(label)/\(counter)".utf8)))
            counter += 1
        }
        return Array(out.prefix(count))
    }

    package func p256(_ label: String) -> P256.Signing.PrivateKey {
        for attempt in 0..<100 {
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes("\(label)#\(attempt)", count: 32)) { return key }
        }
        return P256.Signing.PrivateKey()
    }

    package func p384(_ label: String) -> P384.Signing.PrivateKey {
        for attempt in 0..<100 {
            if let key = try? P384.Signing.PrivateKey(rawRepresentation: bytes("\(label)#\(attempt)", count: 48)) { return key }
        }
        return P384.Signing.PrivateKey()
    }

    package static func name(_ commonName: String) throws -> DistinguishedName {
        try DistinguishedName {
            CommonName(commonName)
            OrganizationName("TrustSuite Test PKI")
            StateOrProvinceName("California")
        }
    }

    package static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    package static func pem(_ der: [UInt8]) -> String {
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

    /// A CA certificate (P-384) valid from 2020 to 2045, with the
    /// extensions of Apple's CA of the same place in `chain`
    /// (``AppleCertificateShapes``): a root's when self-issued, else an
    /// intermediate's.
    package func caCertificate(
        subject: String, key: P384.Signing.PrivateKey, issuer: String, issuerKey: P384.Signing.PrivateKey,
        serial: Int, notBefore: Date? = nil, notAfter: Date? = nil, keyUsage: KeyUsage = AppleCertificateShapes.caKeyUsage,
        chain: AppleCertificateShapes.Chain = .attestation
    ) throws -> Certificate {
        let list = try AppleCertificateShapes.caExtensions(
            chain: chain, key: .init(key.publicKey), issuerKey: .init(issuerKey.publicKey),
            keyUsage: keyUsage)
        return try Certificate(
            version: .v3, serialNumber: .init(serial), publicKey: .init(key.publicKey),
            notValidBefore: notBefore ?? Date(timeIntervalSince1970: 1_584_556_800),
            notValidAfter: notAfter ?? Date(timeIntervalSince1970: 2_373_235_200),
            issuer: try Self.name(issuer), subject: try Self.name(subject), signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Self.extensions(list), issuerPrivateKey: .init(issuerKey))
    }

    /// An end-entity certificate with a P-256 key, basic constraints and key
    /// usage (both critical), and optional raw extensions after them.
    package func leafCertificate(
        subject: String, key: P256.Signing.PublicKey, issuer: String, issuerKey: P384.Signing.PrivateKey,
        serial: Int, notBefore: Date, notAfter: Date, extra: [Certificate.Extension],
        keyUsage: KeyUsage = KeyUsage(digitalSignature: true)
    ) throws -> Certificate {
        let list =
            [
                try Certificate.Extension(BasicConstraints.notCertificateAuthority, critical: true),
                try Certificate.Extension(keyUsage, critical: true),
            ] + extra
        return try leafCertificate(
            subject: subject, key: key, issuer: issuer, issuerKey: issuerKey, serial: serial,
            notBefore: notBefore, notAfter: notAfter, extensions: list)
    }

    /// An end-entity certificate with a P-256 key and exactly `extensions`, in order.
    package func leafCertificate(
        subject: String, key: P256.Signing.PublicKey, issuer: String, issuerKey: P384.Signing.PrivateKey,
        serial: Int, notBefore: Date, notAfter: Date, extensions: [Certificate.Extension]
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: .init(serial), publicKey: .init(key), notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: try Self.name(issuer), subject: try Self.name(subject),
            signatureAlgorithm: .ecdsaWithSHA256, extensions: try Self.extensions(extensions), issuerPrivateKey: .init(issuerKey))
    }

    /// A receipt signer shaped as Apple's ("Application Attestation Fraud
    /// Receipt Signing"): P-256, issued by a receipt CA, with the marker
    /// unless `marker` is false (``AppleCertificateShapes/receiptSignerExtensions(key:issuerKey:keyUsage:marker:)``).
    package func receiptSignerCertificate(
        subject: String, key: P256.Signing.PublicKey, issuer: String, issuerKey: P384.Signing.PrivateKey,
        serial: Int, notBefore: Date, notAfter: Date, keyUsage: KeyUsage = KeyUsage(digitalSignature: true), marker: Bool = true
    ) throws -> Certificate {
        let list = try AppleCertificateShapes.receiptSignerExtensions(
            key: .init(key), issuerKey: .init(issuerKey.publicKey),
            keyUsage: keyUsage, marker: marker)
        return try leafCertificate(
            subject: subject, key: key, issuer: issuer, issuerKey: issuerKey, serial: serial,
            notBefore: notBefore, notAfter: notAfter, extensions: list)
    }

    static func extensions(_ list: [Certificate.Extension]) throws -> Certificate.Extensions {
        var extensions = Certificate.Extensions()
        for item in list { try extensions.append(item) }
        return extensions
    }
}

/// The attestation side of the test PKI.
package struct AttestationPKI {
    package static let rootName = "TrustSuite Test App Attestation Root CA"
    package static let intermediateName = "TrustSuite Test App Attestation CA 1"

    package let rootKey: P384.Signing.PrivateKey
    package let intermediateKey: P384.Signing.PrivateKey
    package let root: [UInt8]
    package let intermediate: [UInt8]
    /// An unrelated root with the same name, and its intermediate (attacker).
    package let attackerRoot: [UInt8]
    package let attackerIntermediateKey: P384.Signing.PrivateKey
    package let attackerIntermediate: [UInt8]

    package init(_ pki: GeneratorPKI) throws {
        rootKey = pki.p384("attestation-root")
        intermediateKey = pki.p384("attestation-intermediate")
        root = try GeneratorPKI.der(
            pki.caCertificate(
                subject: Self.rootName, key: rootKey, issuer: Self.rootName,
                issuerKey: rootKey, serial: 1))
        intermediate = try GeneratorPKI.der(
            pki.caCertificate(
                subject: Self.intermediateName, key: intermediateKey,
                issuer: Self.rootName, issuerKey: rootKey, serial: 2))
        let attacker = try AttackerCA(pki)
        attackerIntermediateKey = AttackerCA.intermediateKey(pki)
        attackerRoot = attacker.root
        attackerIntermediate = attacker.intermediate
    }
}

/// A second attestation CA under the test CA's names (the same root and
/// intermediate subjects, other keys from the seed): what an attacker who
/// copies the names sends to a verifier that matches its anchor by name or
/// trusts a root carried in x5c. The software device keeps one in its state.
package struct AttackerCA: Codable, Sendable, Hashable {
    package let root: [UInt8]
    package let intermediate: [UInt8]

    package static func intermediateKey(_ pki: GeneratorPKI) -> P384.Signing.PrivateKey { pki.p384("attacker-intermediate") }

    package init(_ pki: GeneratorPKI) throws {
        let rootKey = pki.p384("attacker-root")
        root = try GeneratorPKI.der(
            pki.caCertificate(
                subject: AttestationPKI.rootName, key: rootKey,
                issuer: AttestationPKI.rootName, issuerKey: rootKey, serial: 1))
        intermediate = try GeneratorPKI.der(
            pki.caCertificate(
                subject: AttestationPKI.intermediateName, key: Self.intermediateKey(pki), issuer: AttestationPKI.rootName,
                issuerKey: rootKey, serial: 2))
    }
}

/// A key that signs receipts: Apple's signer is P-256; the pinning vectors
/// also sign with the CAs' own P-384 keys.
package enum ReceiptSigningKey {
    case p256(P256.Signing.PrivateKey)
    case p384(P384.Signing.PrivateKey)

    /// ECDSA with SHA-256 over `bytes`, DER.
    package func sign(_ bytes: [UInt8]) throws -> [UInt8] {
        let digest = SHA256.hash(data: bytes)
        switch self {
        case .p256(let key): return Array(try key.signature(for: digest).derRepresentation)
        case .p384(let key): return Array(try key.signature(for: digest).derRepresentation)
        }
    }
}

/// Who signs a receipt, and the certificates the receipt carries.
package struct ReceiptSigner {
    package let key: ReceiptSigningKey
    package let certificate: Certificate
    package let certificates: [[UInt8]]
}

/// The receipt side: "Fraud Receipt Signing" ← "Application Integration CA 5" ← "Root CA - G3" shapes.
/// The signer carries the receipt-signing marker extension, as Apple's does.
package struct ReceiptPKI {
    package static let rootName = "TrustSuite Test Root CA - G3"
    package static let intermediateName = "TrustSuite Test Application Integration CA 5 - G1"
    package static let signerName = "TrustSuite Test Application Attestation Fraud Receipt Signing"
    package static let developerName = "TrustSuite Test Developer Certificate"
    package static let weakIntermediateName = "TrustSuite Test Integration CA without keyCertSign"
    package static let siblingName = "TrustSuite Test Application Integration CA 6 - G1"

    /// Signers the pinning vectors use besides Apple's shape.
    package enum SignerChoice: Equatable {
        case standard
        /// A leaf of the right CA without the marker (a developer certificate).
        case unmarked
        /// The intermediate signs with its own key and certificate.
        case intermediate
        /// The root signs with its own key and certificate.
        case root
        /// The signer's name and marker, but a key usage of keyCertSign only.
        case wrongUsage
        /// A marked signer issued by an intermediate whose key usage lacks keyCertSign.
        case caWithoutKeyCertSign
        /// A marked signer issued by another CA under the same root.
        case siblingCA
        /// A marked signer issued by a second CA of the expected intermediate's name (another key).
        case sameNameCA
        /// A marked signer under `count` CAs that all sign each other
        /// (every ordered pair issued), then the root: path building over
        /// them is exponential without the receipt's bounds.
        case crossSigned(count: Int)
    }

    package let rootKey: P384.Signing.PrivateKey
    package let intermediateKey: P384.Signing.PrivateKey
    package let signerKey: P256.Signing.PrivateKey
    package let root: [UInt8]
    package let intermediate: [UInt8]
    package let signer: [UInt8]
    package let signerCertificate: Certificate
    package let signerNotBefore: Date
    package let signerNotAfter: Date
    private let pki: GeneratorPKI

    package init(_ pki: GeneratorPKI) throws {
        self.pki = pki
        rootKey = pki.p384("receipt-root")
        intermediateKey = pki.p384("receipt-intermediate")
        signerKey = pki.p256("receipt-signer")
        root = try GeneratorPKI.der(
            pki.caCertificate(
                subject: Self.rootName, key: rootKey, issuer: Self.rootName,
                issuerKey: rootKey, serial: 11, chain: .receipt))
        intermediate = try GeneratorPKI.der(
            pki.caCertificate(
                subject: Self.intermediateName, key: intermediateKey,
                issuer: Self.rootName, issuerKey: rootKey, serial: 12, chain: .receipt))
        signerNotBefore = pki.now.addingTimeInterval(-180 * 86_400)
        signerNotAfter = pki.now.addingTimeInterval(365 * 86_400)
        signerCertificate = try pki.receiptSignerCertificate(
            subject: Self.signerName, key: signerKey.publicKey, issuer: Self.intermediateName, issuerKey: intermediateKey,
            serial: 13, notBefore: signerNotBefore, notAfter: signerNotAfter)
        signer = try GeneratorPKI.der(signerCertificate)
    }

    /// The chain as it was issued earlier (a software device's stored CA):
    /// keys from the seed, certificates as stored.
    package init(_ pki: GeneratorPKI, root: [UInt8], intermediate: [UInt8], signer: [UInt8]) throws {
        self.pki = pki
        rootKey = pki.p384("receipt-root")
        intermediateKey = pki.p384("receipt-intermediate")
        signerKey = pki.p256("receipt-signer")
        self.root = root
        self.intermediate = intermediate
        self.signer = signer
        signerCertificate = try Certificate(derEncoded: signer)
        signerNotBefore = signerCertificate.notValidBefore
        signerNotAfter = signerCertificate.notValidAfter
    }

    /// The receipt-signing marker extension (1.2.840.113635.100.12.15), value NULL.
    package static var marker: Certificate.Extension {
        Certificate.Extension(oid: ReceiptVerifier.signerMarkerOID, critical: false, value: [0x05, 0x00])
    }

    package func signer(_ choice: SignerChoice) throws -> ReceiptSigner {
        switch choice {
        case .standard:
            return ReceiptSigner(key: .p256(signerKey), certificate: signerCertificate, certificates: [signer, intermediate, root])
        case .unmarked:
            let key = pki.p256("developer")
            let certificate = try pki.receiptSignerCertificate(
                subject: Self.developerName, key: key.publicKey, issuer: Self.intermediateName, issuerKey: intermediateKey,
                serial: 14, notBefore: signerNotBefore, notAfter: signerNotAfter, marker: false)
            return ReceiptSigner(
                key: .p256(key), certificate: certificate,
                certificates: [try GeneratorPKI.der(certificate), intermediate, root])
        case .intermediate:
            return ReceiptSigner(
                key: .p384(intermediateKey), certificate: try Certificate(derEncoded: intermediate),
                certificates: [intermediate, root])
        case .root:
            return ReceiptSigner(key: .p384(rootKey), certificate: try Certificate(derEncoded: root), certificates: [root])
        case .wrongUsage:
            let key = pki.p256("wrong-usage-signer")
            let certificate = try pki.receiptSignerCertificate(
                subject: Self.signerName, key: key.publicKey, issuer: Self.intermediateName, issuerKey: intermediateKey,
                serial: 15, notBefore: signerNotBefore, notAfter: signerNotAfter, keyUsage: KeyUsage(keyCertSign: true))
            return ReceiptSigner(
                key: .p256(key), certificate: certificate,
                certificates: [try GeneratorPKI.der(certificate), intermediate, root])
        case .caWithoutKeyCertSign:
            let weakKey = pki.p384("weak-intermediate")
            let weak = try GeneratorPKI.der(
                pki.caCertificate(
                    subject: Self.weakIntermediateName, key: weakKey, issuer: Self.rootName, issuerKey: rootKey, serial: 16,
                    keyUsage: KeyUsage(digitalSignature: true, cRLSign: true), chain: .receipt))
            let certificate = try pki.receiptSignerCertificate(
                subject: Self.signerName, key: signerKey.publicKey, issuer: Self.weakIntermediateName, issuerKey: weakKey,
                serial: 17, notBefore: signerNotBefore, notAfter: signerNotAfter)
            return ReceiptSigner(
                key: .p256(signerKey), certificate: certificate,
                certificates: [try GeneratorPKI.der(certificate), weak, root])
        case .siblingCA, .sameNameCA:
            let sibling = choice == .siblingCA
            let name = sibling ? Self.siblingName : Self.intermediateName
            let caKey = pki.p384(sibling ? "sibling-intermediate" : "same-name-intermediate")
            let ca = try GeneratorPKI.der(
                pki.caCertificate(
                    subject: name, key: caKey, issuer: Self.rootName, issuerKey: rootKey,
                    serial: sibling ? 18 : 19, chain: .receipt))
            let certificate = try pki.receiptSignerCertificate(
                subject: Self.signerName, key: signerKey.publicKey, issuer: name, issuerKey: caKey,
                serial: sibling ? 20 : 21, notBefore: signerNotBefore, notAfter: signerNotAfter)
            return ReceiptSigner(
                key: .p256(signerKey), certificate: certificate,
                certificates: [try GeneratorPKI.der(certificate), ca, root])
        case .crossSigned(let count):
            let names = (0..<count).map { "TrustSuite Test Cross-Signed CA \($0)" }
            let keys = (0..<count).map { pki.p384("cross-signed-\($0)") }
            var certificates: [[UInt8]] = []
            var serial = 100
            for subject in 0..<count {
                // CA 0 is also issued by the root, so a path exists.
                let issuers = (0..<count).filter { $0 != subject }
                for issuer in issuers {
                    serial += 1
                    certificates.append(
                        try GeneratorPKI.der(
                            pki.caCertificate(
                                subject: names[subject], key: keys[subject], issuer: names[issuer], issuerKey: keys[issuer], serial: serial,
                                chain: .receipt)))
                }
            }
            serial += 1
            certificates.append(
                try GeneratorPKI.der(
                    pki.caCertificate(
                        subject: names[0], key: keys[0], issuer: Self.rootName,
                        issuerKey: rootKey, serial: serial, chain: .receipt)))
            let certificate = try pki.receiptSignerCertificate(
                subject: Self.signerName, key: signerKey.publicKey, issuer: names[count - 1], issuerKey: keys[count - 1],
                serial: serial + 1, notBefore: signerNotBefore, notAfter: signerNotAfter)
            return ReceiptSigner(
                key: .p256(signerKey), certificate: certificate,
                certificates: [try GeneratorPKI.der(certificate)] + certificates + [root])
        }
    }
}
