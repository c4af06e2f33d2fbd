import AppAttest
import Crypto
import Foundation
import X509
import TestPKI

/// Receipts built to cost a verifier time (the audit's construction), for
/// the bound's tests and the receipt fuzz oracle.
package enum HostileReceipts {
    /// A receipt whose signer sits under `count` certificate authorities
    /// that all sign each other (every ordered pair issued, one of them also
    /// by the root), with the test root it should chain to and the
    /// validation time. Without the bounds of docs/models/app-attest.md, path
    /// building over such a set is exponential in `count`.
    /// - Parameter dropRoot: leave the root's own certificate out of the
    ///   CMS set (a smaller set with the same paths).
    package static func crossSigned(
        count: Int, seed: UInt64 = 1, now: Date = AppAttestGenerator.defaultNow,
        keep: Int? = nil
    ) throws -> (receipt: [UInt8], rootDER: [UInt8], time: Date) {
        let vectors = try AppAttestVectors(pki: GeneratorPKI(seed: seed, now: now))
        var spec = ReceiptSpec(pki: vectors.pki)
        spec.attestedCertificate = vectors.credentialCertificate
        spec.signer = .crossSigned(count: count)
        spec.keepCertificates = keep
        let receipt = try ReceiptBuilder(pki: vectors.receipts).build(spec).bytes
        return (receipt, vectors.receipts.root, now)
    }

    /// Certificates for counting candidate paths: a marked signer, three
    /// intermediates of the expected name (three keys) and two anchors of
    /// the root's name (two keys).
    package static func sameNamePaths(seed: UInt64 = 1) throws
        -> (signer: Certificate, intermediates: [Certificate], anchors: [Certificate])
    {
        let pki = GeneratorPKI(seed: seed, now: AppAttestGenerator.defaultNow)
        let rootKeys = (0..<2).map { pki.p384("same-name-root-\($0)") }
        let anchors = try rootKeys.enumerated().map { index, key in
            try pki.caCertificate(
                subject: ReceiptPKI.rootName, key: key, issuer: ReceiptPKI.rootName, issuerKey: key, serial: 200 + index,
                chain: .receipt)
        }
        let intermediateKeys = (0..<3).map { pki.p384("same-name-ca-\($0)") }
        let intermediates = try intermediateKeys.enumerated().map { index, key in
            try pki.caCertificate(
                subject: ReceiptPKI.intermediateName, key: key, issuer: ReceiptPKI.rootName,
                issuerKey: rootKeys[0], serial: 210 + index, chain: .receipt)
        }
        let signer = try pki.receiptSignerCertificate(
            subject: ReceiptPKI.signerName, key: pki.p256("same-name-signer").publicKey, issuer: ReceiptPKI.intermediateName,
            issuerKey: intermediateKeys[0], serial: 220, notBefore: pki.now.addingTimeInterval(-86_400),
            notAfter: pki.now.addingTimeInterval(86_400))
        return (signer, intermediates, anchors)
    }
}
