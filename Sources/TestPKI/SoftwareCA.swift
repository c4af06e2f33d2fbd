import AppAttest
import Crypto
import Foundation
import StrictCBOR
import X509
import TrustSuiteSupport

/// The certificate authorities of a software App Attest device (the
/// `AppAttestDevice` product): the generator's test PKI, issued once and kept
/// as DER, since ECDSA signatures make every issuance's bytes differ. Keys
/// come back from the seed. Names say "TrustSuite Test", never Apple's.
package struct SoftwareCA: Codable, Sendable, Hashable {
    package let seed: UInt64
    /// When the CA was made: the receipt signer is valid from 180 days
    /// before to 365 days after it.
    package let created: Date
    package let attestationRoot: [UInt8]
    package let attestationIntermediate: [UInt8]
    package let receiptRoot: [UInt8]
    package let receiptIntermediate: [UInt8]
    package let receiptSigner: [UInt8]
    /// A second attestation CA with the same names (the attacker-root
    /// shape); absent from states made before it existed, which the device
    /// completes on first use.
    package var attacker: AttackerCA?

    package static func make(seed: UInt64, now: Date) throws -> SoftwareCA {
        let pki = GeneratorPKI(seed: seed, now: now)
        let rootKey = pki.p384("attestation-root")
        let intermediateKey = pki.p384("attestation-intermediate")
        let root = try GeneratorPKI.der(
            pki.caCertificate(
                subject: AttestationPKI.rootName, key: rootKey, issuer: AttestationPKI.rootName, issuerKey: rootKey, serial: 1))
        let intermediate = try GeneratorPKI.der(
            pki.caCertificate(
                subject: AttestationPKI.intermediateName, key: intermediateKey, issuer: AttestationPKI.rootName,
                issuerKey: rootKey, serial: 2))
        let receipts = try ReceiptPKI(pki)
        return SoftwareCA(
            seed: seed, created: now, attestationRoot: root, attestationIntermediate: intermediate,
            receiptRoot: receipts.root, receiptIntermediate: receipts.intermediate, receiptSigner: receipts.signer,
            attacker: try AttackerCA(pki))
    }

    /// PEM of a DER certificate.
    package static func pem(_ der: [UInt8]) -> String { GeneratorPKI.pem(der) }

    package var pki: GeneratorPKI { GeneratorPKI(seed: seed, now: created) }

    /// What one `attestKey` call is made of.
    package struct AttestationRequest {
        package var credentialKey: P256.Signing.PrivateKey
        package var appId: String
        /// The environment whose aaguid goes into the authenticator data.
        package var environment: AppAttestEnvironment
        package var clientDataHash: [UInt8]
        package var notBefore: Date
        package var notAfter: Date
        /// Bytes after the COSE key (the iOS 27 map), flags unchanged.
        package var trailing: [UInt8] = []
        /// The receipt's token (field 5).
        package var token: [UInt8]
        /// signCount of the authenticator data (0 in every real attestation; step 7).
        package var signCount: UInt32 = 0
        /// The credential id written after the aaguid (default: the key id; step 9).
        package var credentialId: [UInt8]? = nil
        /// The key the credential certificate certifies (default: the credential key's; step 5).
        package var certificateKey: P256.Signing.PublicKey? = nil
        /// The clientDataHash the certificate's nonce covers (default: `clientDataHash`; steps 2–4).
        package var nonceClientDataHash: [UInt8]? = nil
        /// The nonce extension's value made from the nonce (default: the DER shape of step 4).
        package var nonceExtension: ([UInt8]) -> [UInt8] = NonceShapes.standard
        /// Issue the credential certificate under this CA and send its
        /// intermediate in x5c (default: the device's own CA; step 1).
        package var issuer: AttackerCA? = nil

        package init(
            credentialKey: P256.Signing.PrivateKey, appId: String, environment: AppAttestEnvironment,
            clientDataHash: [UInt8], notBefore: Date, notAfter: Date, token: [UInt8]
        ) {
            self.credentialKey = credentialKey
            self.appId = appId
            self.environment = environment
            self.clientDataHash = clientDataHash
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.token = token
        }
    }

    /// The attestation object Apple's service would return for `request`,
    /// with its ATTEST receipt (created 24 h after the credential
    /// certificate's notBefore, as in real data).
    package func attest(_ request: AttestationRequest) throws -> (object: [UInt8], receipt: [UInt8]) {
        let pki = pki
        let point = Array(request.credentialKey.publicKey.x963Representation)
        let keyId = Array(SHA256.hash(data: point))
        let cose = CBOREncoder.canonical(
            .map([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
                (.int(-2), .bytes(Array(point[1..<33]))), (.int(-3), .bytes(Array(point[33..<65]))),
            ]))
        var authData = Array(SHA256.hash(data: Array(request.appId.utf8)))
        authData.append(0x40)
        authData += withUnsafeBytes(of: request.signCount.bigEndian, Array.init)
        authData += request.environment.aaguid
        let credentialId = request.credentialId ?? keyId
        authData += [UInt8(truncatingIfNeeded: credentialId.count >> 8), UInt8(truncatingIfNeeded: credentialId.count)]
        authData += credentialId + cose + request.trailing

        let leaf = try credentialCertificate(
            authData: authData, clientDataHash: request.nonceClientDataHash ?? request.clientDataHash,
            key: request.certificateKey ?? request.credentialKey.publicKey,
            notBefore: request.notBefore, notAfter: request.notAfter,
            nonceExtension: request.nonceExtension, issuer: request.issuer, appId: request.appId)

        var spec = ReceiptSpec(pki: pki)
        spec.appId = request.appId
        spec.attestedCertificate = leaf
        spec.clientHash = request.clientDataHash
        spec.token = request.token
        spec.creation = request.notBefore.addingTimeInterval(86_400)
        spec.expiration = spec.creation.addingTimeInterval(90 * 86_400)
        spec.environment = request.environment == .production ? "production" : "sandbox"
        let receipts = try ReceiptPKI(pki, root: receiptRoot, intermediate: receiptIntermediate, signer: receiptSigner)
        let receipt = try ReceiptBuilder(pki: receipts).build(spec).bytes
        return (object(leaf: leaf, authData: authData, receipt: receipt, intermediate: request.issuer?.intermediate), receipt)
    }

    /// A credential certificate for `key` whose nonce extension covers
    /// `authData` ‖ `clientDataHash` (written by `nonceExtension`), issued by
    /// the test intermediate or by `issuer`'s, with the extensions of
    /// Apple's (``AppleCertificateShapes/credentialExtensions(nonce:appId:)``;
    /// `appId` goes into 8.5).
    package func credentialCertificate(
        authData: [UInt8], clientDataHash: [UInt8], key: P256.Signing.PublicKey, notBefore: Date, notAfter: Date,
        nonceExtension: ([UInt8]) -> [UInt8] = NonceShapes.standard, issuer: AttackerCA? = nil, appId: String = TestIdentity.appId
    ) throws -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: authData)
        hasher.update(data: clientDataHash)
        let nonce = Array(hasher.finalize())
        let keyId = Array(SHA256.hash(data: key.x963Representation))
        return try GeneratorPKI.der(
            pki.leafCertificate(
                subject: "TrustSuite Test " + BinaryText.hex(keyId), key: key,
                issuer: AttestationPKI.intermediateName,
                issuerKey: issuer == nil ? pki.p384("attestation-intermediate") : AttackerCA.intermediateKey(pki),
                serial: Int(UInt32.random(in: 1...UInt32.max)), notBefore: notBefore, notAfter: notAfter,
                extensions: try AppleCertificateShapes.credentialExtensions(nonce: nonceExtension(nonce), appId: appId)))
    }

    /// A DER ECDSA signature over `bytes` by the test attestation
    /// intermediate's P-384 key, with SHA-384 or SHA-256 (what the
    /// differential X.509 harness re-signs fuzzed certificates with).
    package func signAsAttestationIntermediate(_ bytes: [UInt8], sha384: Bool) throws -> [UInt8] {
        let key = pki.p384("attestation-intermediate")
        let signature = sha384 ? try key.signature(for: SHA384.hash(data: bytes)) : try key.signature(for: SHA256.hash(data: bytes))
        return Array(signature.derRepresentation)
    }

    /// The attestation object around a credential certificate: canonical
    /// `{fmt, attStmt: {x5c: [leaf, intermediate], receipt}, authData}`
    /// (the test intermediate unless another is given).
    package func object(leaf: [UInt8], authData: [UInt8], receipt: [UInt8], intermediate: [UInt8]? = nil) -> [UInt8] {
        let parts = AttestationParts(
            fmt: .text("apple-appattest"), x5c: [leaf, intermediate ?? attestationIntermediate],
            receipt: receipt, authData: authData)
        return CBOREncoder.canonical(parts.standard)
    }

    /// The credential key the generated vectors attest (from the seed).
    package var vectorCredentialKey: P256.Signing.PrivateKey { pki.p256("credential") }

    /// The App ID and clientDataHash of the generated vectors' baselines.
    package static var vectorAppId: String { TestIdentity.appId }
    package static var vectorClientDataHash: [UInt8] { TestIdentity.clientDataHash }

    /// An assertion object: `{"signature": DER, "authenticatorData": bytes}`, canonical.
    package static func assertionObject(signature: [UInt8], authenticatorData: [UInt8]) -> [UInt8] {
        CBOREncoder.canonical(.map([(.text("signature"), .bytes(signature)), (.text("authenticatorData"), .bytes(authenticatorData))]))
    }

    /// A launch-data map holding the given category (4 bytes, little-endian),
    /// bundle version and, on a Mac, code-directory hash type (1 byte) and
    /// hash, each key present only when given; nil for none (a device before
    /// iOS 27 writes no map).
    package static func launchMap(
        validationCategory: UInt32?, bundleVersion: String?, codeDirectoryHashType: UInt8? = nil,
        codeDirectoryHash: [UInt8]? = nil
    ) -> [UInt8]? {
        guard validationCategory != nil || bundleVersion != nil || codeDirectoryHashType != nil || codeDirectoryHash != nil else {
            return nil
        }
        return CBOREncoder.canonical(
            AppleExtensions.launchMap(
                category: validationCategory.map(AppleExtensions.category), bundleVersion: bundleVersion.map(CBORValue.text),
                hashType: codeDirectoryHashType.map { .bytes([$0]) }, hash: codeDirectoryHash.map(CBORValue.bytes)))
    }
}
