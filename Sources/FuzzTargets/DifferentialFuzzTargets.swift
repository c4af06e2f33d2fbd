import AppAttest
import AppAttestGenerator
import Crypto
import Foundation
import OpenSSLOracle
import SwiftASN1
import X509
import TestPKI

extension FuzzWorld {
    // Made on every use, as `root` is (LeakSanitizer and a kept certificate).
    static var intermediate: Certificate? { ca.flatMap { try? Certificate(derEncoded: $0.attestationIntermediate) } }
    static var receiptVerifier: ReceiptVerifier? {
        ca.flatMap { ca in
            (try? Certificate(derEncoded: ca.receiptRoot)).flatMap { try? ReceiptVerifier(trustAnchors: [$0]) }
        }
    }
    /// The validation time in whole seconds, as OpenSSL takes it.
    static let seconds = Int64(now.timeIntervalSince1970)
}

extension FuzzTargets {
    /// ECDSA P-256 / SHA-256, swift-crypto (the reference's `ES256`) against
    /// OpenSSL. Input: a 65-byte public key, one length byte n, an n-byte DER
    /// signature, then the message.
    public static func p256Differential(_ bytes: [UInt8]) -> [String] {
        guard bytes.count >= 66, bytes.count >= 66 + Int(bytes[65]) else { return [] }
        let key = Array(bytes[0..<65])
        let signatureEnd = 66 + Int(bytes[65])
        let signature = Array(bytes[66..<signatureEnd])
        let message = Array(bytes[signatureEnd...])
        let reference = ES256.publicKey(key).map { ES256.verify(derSignature: signature, message: message, publicKey: $0) } ?? false
        let openssl = OpenSSLOracle.verifyECDSAP256(publicKey: key, message: message, derSignature: signature)
        guard reference != openssl else { return [] }
        return KnownDisagreements.judge(.p256Differential, "swift-crypto \(reference), OpenSSL \(openssl)", classes: [])
    }

    /// What the two X.509 verifiers said about one input, and the classes
    /// of known disagreement it falls in.
    public struct Verdicts: Sendable, Equatable {
        public let reference: Bool
        public let openssl: Bool
        public let classes: [Disagreement]
        /// OpenSSL's reason for a refusal, when it gives one.
        public var opensslReason: String? = nil
    }

    /// X.509 path validation, swift-certificates (the reference's
    /// `CertificatePath`) against OpenSSL's `X509_verify_cert`, both at the
    /// fixed time with the test root as the only anchor and the test
    /// intermediate as the only other certificate. The input is a leaf
    /// certificate; its TBSCertificate bytes, as they are, are signed again
    /// with the intermediate's key under the input's outer signature
    /// algorithm, so both verifiers get past the signature to the fields.
    public static func x509Differential(_ bytes: [UInt8]) async -> [String] {
        guard let verdicts = await x509Verdicts(bytes), verdicts.reference != verdicts.openssl else { return [] }
        return KnownDisagreements.judge(
            .x509Differential,
            "swift-certificates \(verdicts.reference), OpenSSL \(verdicts.openssl)"
                + (verdicts.opensslReason.map { " (\($0))" } ?? ""), classes: verdicts.classes)
    }

    public static func x509Verdicts(_ bytes: [UInt8]) async -> Verdicts? {
        guard let ca = FuzzWorld.ca, let root = FuzzWorld.root, let intermediate = FuzzWorld.intermediate else { return nil }
        let leaf = DERSlices.resign(bytes) { tbs, sha384 in try? ca.signAsAttestationIntermediate(tbs, sha384: sha384) } ?? bytes
        let parsed = try? CertificatePath.certificate(derEncoded: leaf)
        var reference = false
        if let parsed,
            case .success = await CertificatePath.validate(leaf: parsed, intermediates: [intermediate], anchors: [root], at: FuzzWorld.now)
        {
            reference = true
        }
        let reason = OpenSSLOracle.chainError(
            leaf: leaf, intermediates: [ca.attestationIntermediate], anchors: [ca.attestationRoot],
            at: FuzzWorld.seconds)
        let openssl = reason == nil
        var classes: [Disagreement] = []
        if parsed == nil { classes.append(.certificateEncoding) }
        // These two only ever excuse a refusal by the reference.
        if !reference, openssl, let parsed, parsed.issuer != intermediate.subject,
            folded(parsed.issuer) == folded(intermediate.subject)
        {
            classes.append(.nameFolding)
        }
        if !reference, openssl, let parsed,
            parsed.extensions.contains(where: {
                $0.critical && $0.oid != .X509ExtensionID.basicConstraints && $0.oid != .X509ExtensionID.keyUsage
            })
        {
            classes.append(.criticalExtension)
        }
        if [parsed, intermediate, root].contains(where: { $0?.notValidAfter == FuzzWorld.now }) { classes.append(.notAfterInstant) }
        return Verdicts(reference: reference, openssl: openssl, classes: classes, opensslReason: reason)
    }

    /// A receipt through full verification against the test receipt root
    /// at the fixed time, and through OpenSSL's `CMS_verify`: the
    /// reference's signature-and-chain stage and OpenSSL agree, OpenSSL's
    /// signed content is the reference's payload, and what fully verifies
    /// passed that stage, has a signer allowed to sign, and reads the fields
    /// the parser reads.
    /// Wall time one receipt's full verification may take under the fuzz
    /// build (ASan makes it 10–20× slower than release, where the bound's
    /// test measures milliseconds).
    static let receiptTimeBound: Duration = .seconds(2)

    public static func receiptVerify(_ bytes: [UInt8]) async -> [String] {
        guard let ca = FuzzWorld.ca, let verifier = FuzzWorld.receiptVerifier else { return [] }
        var problems: [String] = []
        let stage: Result<(Receipt, [Certificate]), AppAttestError>
        do { stage = .success(try await verifier.signatureAndChain(of: bytes, at: FuzzWorld.now)) } catch { stage = .failure(error) }
        let staged = try? stage.get()
        let content = OpenSSLOracle.verifyCMS(bytes, anchors: [ca.receiptRoot], at: FuzzWorld.seconds)
        let verdicts = receiptVerdicts(bytes, staged: staged, content: content)
        if verdicts.reference != verdicts.openssl {
            var reason = ""
            if case .failure(let error) = stage { reason = " (reference: \(error))" }
            problems += KnownDisagreements.judge(
                .receiptVerify,
                "reference signature and chain \(verdicts.reference), OpenSSL CMS_verify \(verdicts.openssl)"
                    + reason, classes: verdicts.classes)
        }
        if let staged, let content, content != staged.0.payload {
            problems.append(
                "OpenSSL's signed content (\(content.count) bytes) is not the reference's payload (\(staged.0.payload.count) bytes)")
        }
        // docs/models/app-attest.md (round 3): a receipt's cost is bounded before
        // any path is built; full verification of any input stays far
        // below the bound (cross-signed CAs took 507 s before it).
        let clock = ContinuousClock()
        let started = clock.now
        let full = try? await verifier.verify(receipt: bytes, at: FuzzWorld.now)
        let elapsed = clock.now - started
        if elapsed > Self.receiptTimeBound {
            problems.append("receipt verification took \(elapsed), more than the bound \(Self.receiptTimeBound)")
        }
        if let verified = full {
            if staged == nil { problems.append("verified, but the signature-and-chain stage refuses it") }
            if verdicts.classes.contains(.signerKeyUsage) { problems.append("verified a receipt whose signer may not sign") }
            let parsed = try? Receipt(bytes: bytes)
            if parsed?.fields != verified.receipt.fields { problems.append("verified fields differ from a fresh parse") }
            if verified.receipt.kind == nil || verified.receipt.appId == nil || verified.receipt.creationTime == nil {
                problems.append("verified a receipt without type, App ID or creation time")
            }
        }
        return problems
    }
}

/// A name as RFC 4518 compares it, roughly: lower case, runs of spaces as one.
func folded(_ name: DistinguishedName) -> String {
    String(describing: name).lowercased().split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
}

extension FuzzTargets {
    /// The receipt differential's verdicts for `bytes`: the reference's
    /// signature-and-chain stage against OpenSSL's CMS_verify.
    public static func receiptVerdicts(_ bytes: [UInt8]) async -> Verdicts? {
        guard let ca = FuzzWorld.ca, let verifier = FuzzWorld.receiptVerifier else { return nil }
        let staged = try? await verifier.signatureAndChain(of: bytes, at: FuzzWorld.now)
        return receiptVerdicts(
            bytes, staged: staged, content: OpenSSLOracle.verifyCMS(bytes, anchors: [ca.receiptRoot], at: FuzzWorld.seconds))
    }

    static func receiptVerdicts(_ bytes: [UInt8], staged: (Receipt, [Certificate])?, content: [UInt8]?) -> Verdicts {
        var classes: [Disagreement] = []
        let receipt = try? Receipt(bytes: bytes)
        if receipt == nil { classes.append(.receiptShape) }
        if let receipt, receipt.certificates.contains(where: { (try? CertificatePath.certificate(derEncoded: $0)) == nil }) {
            classes.append(.certificateEncoding)
        }
        if let staged, staged.1.contains(where: { $0.notValidAfter == FuzzWorld.now }) { classes.append(.notAfterInstant) }
        // The SignerInfo names its certificate's issuer only case-folded:
        // OpenSSL finds the signer, the reference (exact names) does not.
        if staged == nil, content != nil, let receipt,
            receipt.certificates.contains(where: { der in
                guard let certificate = try? Certificate(derEncoded: der) else { return false }
                return certificate.serialNumber == receipt.signerSerial && certificate.issuer != receipt.signerIssuer
                    && folded(certificate.issuer) == folded(receipt.signerIssuer)
            })
        {
            classes.append(.nameFolding)
        }
        if let signer = staged?.1.first, case .some(.some(let usage)) = CertificatePath.keyUsage(of: signer),
            !usage.digitalSignature, !usage.nonRepudiation
        {
            classes.append(.signerKeyUsage)
        }
        return Verdicts(reference: staged != nil, openssl: content != nil, classes: classes)
    }
}

/// Splitting a DER certificate into its outer fields without parsing the
/// fields themselves, so a TBSCertificate in any encoding can be signed
/// again as it is.
enum DERSlices {
    /// The elements (tag, length, contents) of the SEQUENCE `bytes` is, in
    /// order; nil unless `bytes` is exactly one SEQUENCE with definite lengths.
    static func elements(ofSequence bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
        guard let (contents, end) = element(bytes, at: 0), end == bytes.count, bytes.first == 0x30 else { return nil }
        var result: [ArraySlice<UInt8>] = []
        var offset = contents.lowerBound
        while offset < contents.upperBound {
            guard let (_, next) = element(bytes, at: offset), next <= contents.upperBound else { return nil }
            result.append(bytes[offset..<next])
            offset = next
        }
        return result
    }

    /// The contents range and end offset of the element at `start`
    /// (single-byte tags, definite lengths of up to four bytes).
    static func element(_ bytes: [UInt8], at start: Int) -> (Range<Int>, Int)? {
        guard start + 2 <= bytes.count, bytes[start] & 0x1F != 0x1F else { return nil }
        let first = Int(bytes[start + 1])
        var offset = start + 2
        var length = first
        if first & 0x80 != 0 {
            let count = first & 0x7F
            guard (1...4).contains(count), offset + count <= bytes.count else { return nil }
            length = bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
            offset += count
        }
        guard length <= bytes.count - offset else { return nil }
        return (offset..<(offset + length), offset + length)
    }

    /// ecdsa-with-SHA384, 1.2.840.10045.4.3.3, as DER.
    static let ecdsaWithSHA384: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x03]

    /// `SEQUENCE { tbs, algorithm, BIT STRING signature }` with `tbs` and
    /// `algorithm` as in `certificate` and the signature `sign` makes over
    /// the TBS bytes (SHA-384 when the algorithm names it, else SHA-256);
    /// nil when `certificate` does not split into at least two elements.
    static func resign(_ certificate: [UInt8], sign: ([UInt8], Bool) -> [UInt8]?) -> [UInt8]? {
        guard let parts = elements(ofSequence: certificate), parts.count >= 2 else { return nil }
        let tbs = Array(parts[0])
        let algorithm = Array(parts[1])
        let sha384 =
            algorithm.count >= 2 + ecdsaWithSHA384.count
            && algorithm.indices.contains { Array(algorithm.dropFirst($0).prefix(ecdsaWithSHA384.count)) == ecdsaWithSHA384 }
        guard let signature = sign(tbs, sha384) else { return nil }
        return TLV.sequence(tbs, algorithm, TLV.node(0x03, [0x00] + signature))
    }
}
