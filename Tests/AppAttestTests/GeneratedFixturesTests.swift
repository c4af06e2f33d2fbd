import AppAttestGenerator
import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// The committed app-attest files are what `trustsuite generate app-attest
/// --seed 1` writes: the generator runs again into a temporary folder and
/// every vector is compared with the committed one, field by field, except
/// the bytes that hold ECDSA signatures (randomized on every run).
@Suite struct GeneratedFixturesTests {
    /// Inputs and outputs whose bytes carry a fresh signature on every run.
    static let signed: Set<String> = ["attestationObject", "assertion", "receipt", "trustAnchorsPem", "receiptTrustAnchorsPem"]

    static func unsigned(_ value: JSONValue?) -> JSONValue? {
        guard case .object(let fields)? = value else { return value }
        return .object(fields.filter { !signed.contains($0.key) })
    }

    @Test func committedFilesAreTheGeneratorsOutput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-generate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try AppAttestGenerator.generate(seed: 1, into: folder)
        #expect(
            written.map(\.0).sorted() == [
                "assertion-ios27.json", "assertion-macos27.json", "assertion.json", "attestation-ios27.json",
                "attestation-macos27.json", "attestation.json", "devicecheck.json", "receipt.json",
            ])
        for (name, count) in written {
            let fresh = try VectorLoader.loadFile(folder.appendingPathComponent(name).path)
            let committed = try VectorLoader.loadFile(Locations.fixtures.appendingPathComponent("app-attest/\(name)").path)
            #expect(committed.vectors.count == count, "\(name)")
            #expect(committed.title == fresh.title && committed.source == fresh.source && committed.notes == fresh.notes, "\(name)")
            #expect(committed.flagNotes == fresh.flagNotes, "\(name): notes differ from the generator's (FlagNotes)")
            for (old, new) in zip(committed.vectors, fresh.vectors) {
                #expect(
                    old.id == new.id && old.tcId == new.tcId && old.comment == new.comment && old.flags == new.flags, "\(name) \(old.id)")
                #expect(old.result == new.result && old.error == new.error && old.attack == new.attack, "\(name) \(old.id)")
                #expect(Self.unsigned(old.input) == Self.unsigned(new.input), "\(name) \(old.id): input differs")
                #expect(Self.unsigned(old.output) == Self.unsigned(new.output), "\(name) \(old.id): output differs")
            }
        }
    }

    /// Every valid or acceptable test-CA vector that names its anchors is
    /// offered again without them, after it, in one of the file's last two
    /// groups ("The test anchors removed", and in attestation.json the
    /// host-trust-store group), flagged `AnchorsRemoved` and refused with
    /// the family's chain code — except the vectors the reference refuses
    /// before it reads the chain (`CategoryAsInteger`: a copy would expect
    /// the chain's code where the reference answers the parse's).
    @Test func everyAnchoredValidVectorHasAnAnchorsRemovedCopy() throws {
        let files = try VectorLoader.load(paths: [Locations.fixtures.appendingPathComponent("app-attest").path])
        var copies = 0
        for file in files where file.family == .appAttestAttestation || file.family == .appAttestReceipt {
            let removed = file.vectors.filter { $0.flags.contains("AnchorsRemoved") }
            let code = file.family == .appAttestReceipt ? "receiptChainInvalid" : "certificateChainInvalid"
            let prefix = file.family == .appAttestReceipt ? "receipt-" : "attestation-"
            let anchored = file.vectors.filter {
                $0.result != .invalid && ($0.input["trustAnchorsPem"] != nil || $0.input["receiptTrustAnchorsPem"] != nil)
                    && !$0.flags.contains("CategoryAsInteger")
            }
            #expect(removed.count == anchored.count && !anchored.isEmpty, "\(file.path): \(removed.count) copies of \(anchored.count)")
            let lastGroups = Set((file.vectors.map(\.group).max() ?? 0) - 1...(file.vectors.map(\.group).max() ?? 0))
            for original in anchored {
                let copyId = prefix + "anchors-removed-" + original.id.dropFirst(prefix.count)
                let copy = try #require(removed.first { $0.id == copyId }, "\(original.id) has no copy \(copyId)")
                #expect(copy.result == .invalid && copy.error == code && copy.attack == .network, "\(copy.id)")
                #expect(
                    copy.input["attestationObject"] == original.input["attestationObject"]
                        && copy.input["receipt"] == original.input["receipt"])
                #expect(copy.input["trustAnchorsPem"] == nil && copy.input["receiptTrustAnchorsPem"] == nil, "\(copy.id)")
                #expect(
                    copy.tcId > original.tcId && lastGroups.contains(copy.group), "\(copy.id) is not after \(original.id) in a last group")
            }
            copies += removed.count
        }
        #expect(copies > 50)
    }
}
