import AppAttest
import VectorContract
import Crypto
import Foundation
import StrictCBOR
import TestPKI
import X509
import TrustSuiteSupport

/// Everything one attestation vector is built from. A mutation edits a copy
/// of the baseline; the object is then assembled consistently (the nonce
/// covers the mutated authenticator data unless the mutation targets it).
struct AttestationSpec {
    enum Chain { case standard, leafOnly, empty, withRoot, reversed, attacker, corruptLeaf, intermediateWithoutKeyCertSign, hostStore }
    enum Anchors { case testRoot, appleDefault, attackerRoot, intermediateAndRoot, intermediateOnly, hostStoreRoot }

    var environment: AppAttestEnvironment = .production
    var appId = AppAttestVectors.appId
    /// The App ID hashed into rpIdHash (default: the baseline App ID, whatever `appId` says).
    var rpIdAppId: String? = nil
    var flags: UInt8 = 0x40
    var signCount: UInt32 = 0
    var aaguid: [UInt8]? = nil
    var credentialId: [UInt8]? = nil
    var credentialIdLength: Int? = nil
    var coseKey: [UInt8]? = nil
    var omitCredentialData = false
    var trailing: [UInt8] = []
    /// The map encoded into `trailing`, when it is one (the expected `extensions` output).
    var extensions: CBORValue? = nil
    var clientDataHash = AppAttestVectors.clientDataHash
    /// The challenge the app hashed; written to the vector only while
    /// clientDataHash = SHA-256(challenge) holds.
    var challenge: [UInt8]? = AppAttestVectors.challenge
    /// The clientDataHash the certificate's nonce was computed with, when different.
    var nonceClientDataHash: [UInt8]? = nil
    /// The nonce extension's value from the nonce; nil leaves the extension out.
    var nonceExtension: (([UInt8]) -> [UInt8])? = { NonceShapes.standard($0) }
    /// Changes the credential certificate's extensions, Apple's in Apple's
    /// order (``AppleCertificateShapes/credentialExtensions(nonce:appId:)``).
    var editLeafExtensions: (([Certificate.Extension]) -> [Certificate.Extension])? = nil
    /// Further extensions of the credential certificate, after Apple's.
    var extraExtensions: [Certificate.Extension] = []
    var leafNotBefore: Date
    var leafNotAfter: Date
    var chain: Chain = .standard
    var fmt: CBORValue = .text("apple-appattest")
    var keyId: [UInt8]? = nil
    var validationTime: Date
    var anchors: Anchors = .testRoot
    /// Rebuilds the top-level CBOR from the parts (structure mutations).
    var structure: ((AttestationParts) -> CBORValue)? = nil
    /// Changes the final bytes (truncation, trailing bytes).
    var bytes: (([UInt8]) -> [UInt8])? = nil
    /// Changes the embedded receipt (made for this vector's credential certificate).
    var receipt: ((inout ReceiptSpec) -> Void)? = nil
    /// The receipt's anchors: the test receipt root, or none given (Apple Root CA - G3).
    var receiptAnchorsGiven = true
    /// Ask the verifier to fail the attestation on a bad receipt.
    var requireReceipt = false
    /// What the receipt check reports on a valid attestation.
    var receiptStatus = "verified"
    /// Launch-policy inputs (docs/vectors.md names), merged into the vector input.
    var launchPolicy: [String: JSONValue] = [:]
}

/// A spec whose authenticator data may end in a CBOR map.
protocol TrailingMapSpec {
    var trailing: [UInt8] { get set }
    var extensions: CBORValue? { get set }
    var launchPolicy: [String: JSONValue] { get set }
}

extension TrailingMapSpec {
    /// Appends `map` after the header (or the COSE key) and expects it back
    /// as `extensions`, its entries in the canonical order the bytes carry.
    mutating func appendMap(_ map: CBORValue) {
        trailing = CBOREncoder.canonical(map)
        guard case .map(let entries, _) = map else {
            extensions = map
            return
        }
        extensions = .map(
            entries.sorted { CBOREncoder.canonical($0.key).lexicographicallyPrecedes(CBOREncoder.canonical($1.key)) },
            indefinite: false)
    }
}

extension AttestationSpec: TrailingMapSpec {}

/// The generated `app-attest-attestation` vectors.
struct AppAttestVectors {
    static let appId = TestIdentity.appId
    static let challenge = TestIdentity.challenge
    static let clientDataHash = TestIdentity.clientDataHash

    let pki: GeneratorPKI
    let attestation: AttestationPKI
    let receipts: ReceiptPKI
    let credentialKey: P256.Signing.PrivateKey
    let hostStore: HostStoreCA

    init(pki: GeneratorPKI) throws {
        self.pki = pki
        attestation = try AttestationPKI(pki)
        receipts = try ReceiptPKI(pki)
        credentialKey = pki.p256("credential")
        hostStore = try HostStoreCA(pki)
    }

    var keyId: [UInt8] { Array(SHA256.hash(data: credentialKey.publicKey.x963Representation)) }

    static func baselineLeaf(pki: GeneratorPKI, attestation: AttestationPKI, key: P256.Signing.PrivateKey) throws -> [UInt8] {
        try GeneratorPKI.der(
            pki.leafCertificate(
                subject: "credential", key: key.publicKey, issuer: AttestationPKI.intermediateName,
                issuerKey: attestation.intermediateKey, serial: 100, notBefore: pki.now.addingTimeInterval(-86_400),
                notAfter: pki.now.addingTimeInterval(2 * 86_400),
                extensions: try AppleCertificateShapes.credentialExtensions(nonce: [0x30, 0x00], appId: appId)))
    }

    func baseline() -> AttestationSpec {
        AttestationSpec(
            leafNotBefore: pki.now.addingTimeInterval(-86_400), leafNotAfter: pki.now.addingTimeInterval(2 * 86_400),
            validationTime: pki.now)
    }

    func coseKey(_ entries: [(CBORValue, CBORValue)]) -> [UInt8] { CBOREncoder.canonical(.map(entries)) }

    var coseEntries: [(CBORValue, CBORValue)] {
        let point = Array(credentialKey.publicKey.x963Representation)
        return [
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
            (.int(-2), .bytes(Array(point[1..<33]))), (.int(-3), .bytes(Array(point[33..<65]))),
        ]
    }

    func authData(_ spec: AttestationSpec) -> [UInt8] {
        var data = Array(SHA256.hash(data: Array((spec.rpIdAppId ?? Self.appId).utf8)))
        data.append(spec.flags)
        data += withUnsafeBytes(of: spec.signCount.bigEndian, Array.init)
        if !spec.omitCredentialData {
            let credentialId = spec.credentialId ?? keyId
            data += spec.aaguid ?? spec.environment.aaguid
            let length = spec.credentialIdLength ?? credentialId.count
            data += [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            data += credentialId
            data += spec.coseKey ?? coseKey(coseEntries)
        }
        return data + spec.trailing
    }

    /// An intermediate like the test one whose key usage lacks keyCertSign.
    var weakIntermediate: [UInt8] {
        get throws {
            try GeneratorPKI.der(
                pki.caCertificate(
                    subject: AttestationPKI.intermediateName, key: attestation.intermediateKey,
                    issuer: AttestationPKI.rootName, issuerKey: attestation.rootKey, serial: 3,
                    keyUsage: KeyUsage(digitalSignature: true, cRLSign: true)))
        }
    }

    /// The receipt Apple would embed for this credential certificate:
    /// created 24 h after the certificate's notBefore (as in real data).
    func embeddedReceipt(_ spec: AttestationSpec, leaf: [UInt8]) throws -> [UInt8] {
        var receiptSpec = ReceiptSpec(pki: pki)
        receiptSpec.attestedCertificate = leaf
        receiptSpec.clientHash = spec.clientDataHash
        receiptSpec.creation = spec.leafNotBefore.addingTimeInterval(86_400 - 10)
        receiptSpec.environment = spec.environment == .production ? "production" : "sandbox"
        spec.receipt?(&receiptSpec)
        return try ReceiptBuilder(pki: receipts).build(receiptSpec).bytes
    }

    /// Builds the object and the vector input for a spec.
    func build(_ spec: AttestationSpec) throws -> (input: [String: JSONValue], publicKey: [UInt8], receipt: [UInt8]) {
        let data = authData(spec)
        var hasher = SHA256()
        hasher.update(data: data)
        hasher.update(data: spec.nonceClientDataHash ?? spec.clientDataHash)
        let nonce = Array(hasher.finalize())
        var extensions = try AppleCertificateShapes.credentialExtensions(nonce: spec.nonceExtension.map { $0(nonce) }, appId: Self.appId)
        if let edit = spec.editLeafExtensions { extensions = edit(extensions) }
        extensions += spec.extraExtensions
        let issuerKey =
            spec.chain == .attacker
            ? attestation.attackerIntermediateKey
            : spec.chain == .hostStore ? hostStore.intermediateKey : attestation.intermediateKey
        let leaf = try GeneratorPKI.der(
            pki.leafCertificate(
                subject: BinaryText.hex(keyId), key: credentialKey.publicKey,
                issuer: spec.chain == .hostStore ? HostStoreCA.intermediateName : AttestationPKI.intermediateName,
                issuerKey: issuerKey, serial: 100, notBefore: spec.leafNotBefore, notAfter: spec.leafNotAfter, extensions: extensions))
        let x5c: [[UInt8]]
        switch spec.chain {
        case .standard: x5c = [leaf, attestation.intermediate]
        case .leafOnly: x5c = [leaf]
        case .empty: x5c = []
        case .withRoot: x5c = [leaf, attestation.intermediate, attestation.root]
        case .reversed: x5c = [attestation.intermediate, leaf]
        case .attacker: x5c = [leaf, attestation.attackerIntermediate]
        case .corruptLeaf: x5c = [Array(leaf.prefix(leaf.count / 2)), attestation.intermediate]
        case .intermediateWithoutKeyCertSign: x5c = [leaf, try weakIntermediate]
        case .hostStore: x5c = [leaf, hostStore.intermediate]
        }
        let receipt = try embeddedReceipt(spec, leaf: leaf)
        let parts = AttestationParts(fmt: spec.fmt, x5c: x5c, receipt: receipt, authData: data)
        var object = CBOREncoder.canonical(spec.structure?(parts) ?? parts.standard)
        if let mutate = spec.bytes { object = mutate(object) }
        var input: [String: JSONValue] = [
            "attestationObject": .b64(object), "keyId": .b64(spec.keyId ?? keyId), "clientDataHash": .b64(spec.clientDataHash),
            "appId": .string(spec.appId), "environment": .string(spec.environment.rawValue),
            "validationTime": .string(RFC3339.format(spec.validationTime)),
        ]
        if let challenge = spec.challenge, Array(SHA256.hash(data: challenge)) == spec.clientDataHash {
            input["challenge"] = .b64(challenge)
        }
        switch spec.anchors {
        case .testRoot: input["trustAnchorsPem"] = .array([.string(GeneratorPKI.pem(attestation.root))])
        case .attackerRoot: input["trustAnchorsPem"] = .array([.string(GeneratorPKI.pem(attestation.attackerRoot))])
        case .intermediateAndRoot:
            input["trustAnchorsPem"] = .array([
                .string(GeneratorPKI.pem(attestation.root)), .string(GeneratorPKI.pem(attestation.intermediate)),
            ])
        case .intermediateOnly: input["trustAnchorsPem"] = .array([.string(GeneratorPKI.pem(attestation.intermediate))])
        case .hostStoreRoot: input["trustAnchorsPem"] = .array([.string(GeneratorPKI.pem(hostStore.root))])
        case .appleDefault: break
        }
        if spec.receiptAnchorsGiven { input["receiptTrustAnchorsPem"] = .array([.string(GeneratorPKI.pem(receipts.root))]) }
        if spec.requireReceipt { input["requireReceipt"] = .bool(true) }
        input.merge(spec.launchPolicy) { _, policy in policy }
        return (input, Array(credentialKey.publicKey.x963Representation), receipt)
    }
}

extension AppAttestVectors {
    /// Builds `c` on the baseline and adds it to `file` with its expected outputs.
    func addAttestation(_ c: AttestationCase, to file: inout VectorFileBuilder) throws {
        var spec = baseline()
        c.mutate(&spec)
        let (input, publicKey, receiptBytes) = try build(spec)
        var output: [String: JSONValue]? = nil
        if c.error == nil {
            output = [
                "publicKey": .b64(publicKey), "counter": .int(Int64(spec.signCount)), "receipt": .b64(receiptBytes),
                "receiptStatus": .string(spec.receiptStatus),
            ]
            if let extensions = spec.extensions { output?["extensions"] = .string(extensions.diagnostic) }
        }
        // An acceptable case keeps the reference's reading in its comment
        // and outputs only when the reference accepts it.
        let acceptable = !FlagNotes.acceptableFlags.isDisjoint(with: c.flags)
        file.add(
            id: "attestation-\(c.id)", comment: c.comment, flags: c.flags, input: input, error: acceptable ? nil : c.error, output: output,
            acceptable: acceptable)
    }

    /// Builds `c` on the assertion baseline and adds it to `file` with its expected outputs.
    func addAssertion(_ c: AssertionCase, to file: inout VectorFileBuilder) throws {
        var spec = AssertionSpec()
        c.mutate(&spec)
        let input = try buildAssertion(spec)
        var output: [String: JSONValue]? = nil
        if c.error == nil {
            output = ["counter": .int(Int64(spec.counter))]
            if let extensions = spec.extensions { output?["extensions"] = .string(extensions.diagnostic) }
        }
        let acceptable = !FlagNotes.acceptableFlags.isDisjoint(with: c.flags)
        file.add(
            id: "assertion-\(c.id)", comment: c.comment, flags: c.flags, input: input, error: acceptable ? nil : c.error, output: output,
            acceptable: acceptable)
    }
}

/// An attestation CA that only the host-trust-store group uses ("TrustSuite
/// Test Host Store Root CA" and its intermediate, keys from the seed): no
/// other vector names its root, so the root reaches a hostile trust store
/// only through that group's anchored vectors, and a verifier accepts the
/// group's refused vectors only by consulting the host's store.
struct HostStoreCA {
    static let rootName = "TrustSuite Test Host Store Root CA"
    static let intermediateName = "TrustSuite Test Host Store CA 1"

    let root: [UInt8]
    let intermediate: [UInt8]
    let intermediateKey: P384.Signing.PrivateKey

    init(_ pki: GeneratorPKI) throws {
        let rootKey = pki.p384("host-store-root")
        intermediateKey = pki.p384("host-store-intermediate")
        root = try GeneratorPKI.der(
            pki.caCertificate(subject: Self.rootName, key: rootKey, issuer: Self.rootName, issuerKey: rootKey, serial: 31))
        intermediate = try GeneratorPKI.der(
            pki.caCertificate(
                subject: Self.intermediateName, key: intermediateKey, issuer: Self.rootName,
                issuerKey: rootKey, serial: 32))
    }
}

extension AppAttestVectors {
    /// The group the hostile-trust-store check stands on (docs/vectors.md,
    /// The host's trust store): for each baseline, its object under the
    /// host-store CA anchored at that CA's root (valid: it carries the root
    /// into a hostile trust store built from the run's vectors), the same
    /// object without anchors (Apple's roots apply) and with the suite's
    /// other test root as the only anchor — both `certificateChainInvalid`,
    /// accepted only by a verifier that falls back to the host's store.
    func addHostTrustStoreGroup(to file: inout VectorFileBuilder) throws {
        let flag = FlagNotes.hostTrustStore
        file.group(
            "The host's trust store: a CA no other vector names, anchored once (so a hostile trust store holds its root), "
                + "then offered without anchors and under another anchor: only a verifier consulting the host's store accepts those")
        for environment in AppAttestEnvironment.allCases.reversed() {
            var spec = baseline()
            spec.environment = environment
            spec.chain = .hostStore
            spec.anchors = .hostStoreRoot
            let (input, publicKey, receipt) = try build(spec)
            let name = environment.rawValue
            file.add(
                id: "attestation-host-store::\(name)", comment: "\(name) baseline issued by the host-store CA, anchored at its root",
                flags: [flag], input: input,
                output: [
                    "publicKey": .b64(publicKey), "counter": .int(0), "receipt": .b64(receipt),
                    "receiptStatus": .string(spec.receiptStatus),
                ])
            file.add(
                id: "attestation-anchors-removed-host-store::\(name)",
                comment: "the same object without trustAnchorsPem and receiptTrustAnchorsPem: Apple's roots apply",
                flags: [flag, VectorFileBuilder.anchorsRemoved],
                input: input.filter { !["trustAnchorsPem", "receiptTrustAnchorsPem"].contains($0.key) }, error: .certificateChainInvalid)
            var other = input
            other["trustAnchorsPem"] = .array([.string(GeneratorPKI.pem(attestation.root))])
            file.add(
                id: "attestation-host-store::\(name)-other-anchor",
                comment:
                    "the same object with the suite's main test root as the only anchor (a verifier that adds its anchors to the host's store accepts it)",
                flags: [flag], input: other, error: .certificateChainInvalid)
        }
    }
}
