import AppAttest
import ConformanceKit
import VectorContract
import Crypto
import Foundation
import SwiftASN1
import Testing
import TestPKI
import TestSupport
import TrustSuiteSupport
import X509

/// Synthetic chains shaped like Apple's (docs/models/app-attest.md,
/// Synthetic chains shaped like Apple's): every certificate the generator
/// and the software device issue carries the extensions of the real
/// certificate at its place, in Apple's order and with Apple's criticality;
/// the vector that isolates the Extended Key Usage; and the host trust
/// store's group, which stands on a CA of its own.
@Suite struct AppleShapedChainTests {
    /// (OID, critical) of each extension, in order.
    static func shape(_ der: [UInt8]) throws -> [String] {
        try Certificate(derEncoded: der).extensions.map { "\($0.oid)\($0.critical ? " critical" : "")" }
    }

    /// Key usage, basic constraints and extended key usage as decoded values (the bits and path length compared).
    static func usages(_ der: [UInt8]) throws -> String {
        let certificate = try Certificate(derEncoded: der)
        let keyUsage = try certificate.extensions.keyUsage.map { "\($0)" } ?? "-"
        let constraints = try certificate.extensions.basicConstraints.map { "\($0)" } ?? "-"
        let extended = try certificate.extensions.extendedKeyUsage.map { "\($0)" } ?? "-"
        return "\(keyUsage) | \(constraints) | \(extended)"
    }

    static func vector(_ file: String, _ id: String) throws -> Vector {
        let vectors = try VectorLoader.loadFile(Locations.fixtures.appendingPathComponent("app-attest/\(file)").path).vectors
        return try #require(vectors.first { $0.id == id }, "\(id)")
    }

    static func bytes(_ vector: Vector, _ key: String) throws -> [UInt8] {
        try #require(vector.input[key]?.stringValue.flatMap(BinaryText.base64), "\(vector.id): \(key)")
    }

    static func anchor(_ vector: Vector, _ key: String = "trustAnchorsPem") throws -> [UInt8] {
        let pem = try #require(vector.input[key]?.arrayValue?.first?.stringValue)
        return try #require(PEM.certificates(in: pem)?.first)
    }

    /// The generated attestation chain: credential certificate, intermediate, root.
    static func generatedAttestationChain() throws -> [[UInt8]] {
        let v = try vector("attestation.json", "attestation-baseline::production")
        let object = try AttestationObject(bytes: try bytes(v, "attestationObject"))
        return object.certificates + [try anchor(v)]
    }

    /// The generated receipt chain: signer, intermediate, root.
    static func generatedReceiptChain() throws -> [[UInt8]] {
        let v = try vector("receipt.json", "receipt-baseline::attest-ber")
        return try receiptChain(try Receipt(bytes: try bytes(v, "receipt")).certificates, root: try anchor(v))
    }

    /// Signer, intermediate, root of a receipt's certificate set (any order).
    static func receiptChain(_ certificates: [[UInt8]], root: [UInt8]? = nil) throws -> [[UInt8]] {
        let parsed = try certificates.map { ($0, try Certificate(derEncoded: $0)) }
        let signer = try #require(parsed.first { (try? $0.1.extensions.basicConstraints) == .notCertificateAuthority })
        let intermediate = try #require(parsed.first { $0.1.subject == signer.1.issuer })
        if let root { return [signer.0, intermediate.0, root] }
        let anchor = try #require(parsed.first { $0.1.subject == intermediate.1.issuer && $0.1.subject == $0.1.issuer })
        return [signer.0, intermediate.0, anchor.0]
    }

    /// Apple's 2026 credential certificate and intermediate, and the root.
    static func appleAttestationChain() throws -> [[UInt8]] {
        let sample = try #require(RealData.attestations.first { $0.name.contains("2026") })
        return try AttestationObject(bytes: sample.object).certificates + [AppleRoots.appAttestationRootDER]
    }

    @Test(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
    func attestationChainHasApplesExtensions() throws {
        let apple = try Self.appleAttestationChain(), generated = try Self.generatedAttestationChain()
        for (index, place) in ["credential certificate", "intermediate", "root"].enumerated() {
            #expect(try Self.shape(generated[index]) == Self.shape(apple[index]), "\(place)")
            #expect(try Self.usages(generated[index]) == Self.usages(apple[index]), "\(place)")
        }
    }

    @Test(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
    func receiptChainHasApplesExtensions() throws {
        let real = try #require(RealData.receipts.first)
        let apple = try Self.receiptChain(try Receipt(bytes: real.receipt).certificates)
        let generated = try Self.generatedReceiptChain()
        for (index, place) in ["signer", "intermediate", "root"].enumerated() {
            #expect(try Self.shape(generated[index]) == Self.shape(apple[index]), "\(place)")
            #expect(try Self.usages(generated[index]) == Self.usages(apple[index]), "\(place)")
        }
    }

    /// The software device issues the same shape (a Go server's EKU bug
    /// shows with the device too), and its intermediate is the generator's.
    @Test func deviceChainHasTheGeneratorsShape() throws {
        let ca = try SoftwareCA.make(seed: 7, now: Date(timeIntervalSince1970: 1_768_478_400))
        var request = SoftwareCA.AttestationRequest(
            credentialKey: P256.Signing.PrivateKey(), appId: TestIdentity.appId, environment: .production,
            clientDataHash: TestIdentity.clientDataHash, notBefore: Date(timeIntervalSince1970: 1_768_392_000),
            notAfter: Date(timeIntervalSince1970: 1_768_651_200), token: [1])
        request.trailing = []
        let object = try AttestationObject(bytes: try ca.attest(request).object)
        let generated = try Self.generatedAttestationChain()
        #expect(try Self.shape(object.certificates[0]) == Self.shape(generated[0]))
        #expect(try Self.shape(ca.attestationIntermediate) == Self.shape(generated[1]))
        #expect(try Self.shape(ca.attestationRoot) == Self.shape(generated[2]))
        #expect(try Self.shape(ca.receiptSigner) == Self.shape(try Self.generatedReceiptChain()[0]))
    }

    /// Every valid generated attestation's credential certificate carries
    /// Apple's EKU, except the vectors that take it out.
    @Test func everyGeneratedCredentialCertificateCarriesTheExtendedKeyUsage() throws {
        let files = try VectorLoader.load(paths: [Locations.fixtures.appendingPathComponent("app-attest").path])
        var checked = 0
        for vector in files.filter({ $0.family == .appAttestAttestation }).flatMap(\.vectors) where vector.result == .valid {
            let object = try AttestationObject(bytes: try Self.bytes(vector, "attestationObject"))
            let usage = try Certificate(derEncoded: object.certificates[0]).extensions.extendedKeyUsage
            let removed = vector.id.hasSuffix("::without-eku") || vector.id.hasSuffix("::minimal")
            #expect((usage == nil) == removed, "\(vector.id)")
            checked += 1
        }
        #expect(checked > 80)
    }

    /// The EKU isolated: two valid vectors whose credential certificates
    /// differ only by it (and by what `minimal` also drops), the one with it
    /// flagged with a KNOWN_BUG note that names Go's x509.Verify.
    @Test func extendedKeyUsageIsIsolated() throws {
        let with = try Self.vector("attestation-ios27.json", "attestation-certificate-extension::eku-app-attest-only")
        let without = try Self.vector("attestation-ios27.json", "attestation-certificate-extension::without-eku")
        let minimal = try Self.vector("attestation-ios27.json", "attestation-certificate-extension::minimal")
        for v in [with, without, minimal] { #expect(v.result == .valid, "\(v.id)") }
        func leaf(_ v: Vector) throws -> [UInt8] { try AttestationObject(bytes: try Self.bytes(v, "attestationObject")).certificates[0] }
        #expect(try Self.shape(leaf(with)) == ["2.5.29.19 critical", "2.5.29.15 critical", "2.5.29.37", "1.2.840.113635.100.8.2"])
        #expect(try Self.shape(leaf(minimal)) == ["2.5.29.19 critical", "2.5.29.15 critical", "1.2.840.113635.100.8.2"])
        #expect(!(try Self.shape(leaf(without))).contains("2.5.29.37"))
        let usages = try #require(try Certificate(derEncoded: leaf(with)).extensions.extendedKeyUsage)
        #expect(Array(usages) == [ExtendedKeyUsage.Usage(oid: AppleCertificateShapes.appAttestExtendedKeyUsage)])
        #expect(with.flags == ["LeafExtendedKeyUsage"] && without.flags.isEmpty && minimal.flags.isEmpty)
        let file = try VectorLoader.loadFile(Locations.fixtures.appendingPathComponent("app-attest/attestation-ios27.json").path)
        let note = try #require(file.flagNotes["LeafExtendedKeyUsage"])
        #expect(note.bugType == "KNOWN_BUG" && note.links.contains("https://github.com/bas-d/appattest/pull/6"))
    }

    /// The host trust store's group: its CA's root is named by the group's
    /// anchored vectors alone, so a hostile store made from any selection
    /// holds it only with them; its other vectors are refused with the
    /// chain's code.
    @Test func hostTrustStoreGroupStandsOnItsOwnCA() throws {
        let file = try VectorLoader.loadFile(Locations.fixtures.appendingPathComponent("app-attest/attestation.json").path)
        let last = file.vectors.map(\.group).max() ?? 0
        let group = file.vectors.filter { $0.group == last }
        #expect(group.count == 6 && group.allSatisfy { $0.flags.contains("HostTrustStore") })
        #expect(file.vectors.filter { $0.flags.contains("HostTrustStore") }.count == group.count)
        let anchored = group.filter { $0.result == .valid }
        #expect(anchored.map(\.id) == ["attestation-host-store::production", "attestation-host-store::development"])
        let root = try Self.anchor(try #require(anchored.first))
        #expect(try Certificate(derEncoded: root).subject.description.contains("Host Store Root"))
        for vector in group where vector.result != .valid {
            #expect(vector.result == .invalid && vector.error == "certificateChainInvalid" && vector.attack == .network, "\(vector.id)")
        }
        let removed = group.filter { $0.flags.contains("AnchorsRemoved") }
        #expect(
            removed.count == 2
                && removed.allSatisfy { $0.input["trustAnchorsPem"] == nil && $0.id.contains("-anchors-removed-host-store::") })
        // No other vector of any file names the host-store root.
        let all = try FixtureVectors.loaded.get().flatMap(\.vectors)
        let rootPem = try #require(anchored.first?.input["trustAnchorsPem"]?.arrayValue?.first)
        let naming = all.filter {
            $0.input["trustAnchorsPem"]?.arrayValue?.contains(rootPem) == true
                || $0.input["receiptTrustAnchorsPem"]?.arrayValue?.contains(rootPem) == true
        }
        #expect(Set(naming.map(\.id)) == Set(anchored.map(\.id)))
    }
}
