import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// The anchors-removed vectors and `--hostile-trust-store` (spec/vectors.md,
/// "App Attest vectors any verifier can run (round 3)"), with two small
/// adapters in Tests/Adapters: one that trusts the host's store instead of
/// its anchors (caught only when that store holds the suite's test roots),
/// and one that ignores its anchors and trusts only Apple's roots (passes
/// every real-root vector, refuses every anchors-removed one).
@Suite struct HostileTrustStoreTests {
    static func adapter(_ name: String) -> String { Locations.packageRoot.appendingPathComponent("Tests/Adapters/\(name)").path }
    static let attestations = Locations.fixtures.appendingPathComponent("app-attest/attestation.json").path

    static func cases(_ url: URL) throws -> [JSONValue] {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))["cases"]?.arrayValue ?? []
    }

    static func anchorsRemoved(_ cases: [JSONValue]) -> [JSONValue] {
        cases.filter { $0["id"]?.stringValue?.contains("-anchors-removed") == true }
    }

    @Test(.enabled(if: Locations.adapterPython != nil, Comment(rawValue: Locations.adapterPythonMissingReason)))
    func aSystemStoreVerifierIsCaughtOnlyWithTheHostileStore() throws {
        let python = try #require(Locations.adapterPython)
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let command = "\(python) \(Self.adapter("system_store_adapter.py"))"
        var accepted: [Int] = []
        for hostile in [false, true] {
            let json = folder.appendingPathComponent("run-\(hostile).json")
            let outcome = try CLI.run(
                ["run", "--only", "--fixtures", Self.attestations, "--quiet", "--adapter", command, "--json", json.path]
                    + (hostile ? ["--hostile-trust-store"] : []), timeout: 300)
            #expect(outcome.status == 1, "\(outcome)")
            let removed = Self.anchorsRemoved(try Self.cases(json))
            #expect(removed.count >= 15)
            accepted.append(removed.filter { $0["acceptedInvalid"]?.boolValue == true }.count)
            // The adapter wrote the SSL_CERT_FILE it was given: with the flag, a bundle of the run, gone after it.
            let stderr = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: json))["subjectStderr"]?.stringValue ?? ""
            let file = stderr.split(separator: "\n").first { $0.hasPrefix("SSL_CERT_FILE=") }.map { String($0.dropFirst(14)) } ?? ""
            if hostile {
                #expect(file.contains("trustsuite-trust-store-") && file.hasSuffix("/bundle.pem"), "\(stderr)")
                #expect(!FileManager.default.fileExists(atPath: file), "the hostile trust store outlived the run")
            }
        }
        #expect(accepted[0] == 0, "the host's own store already trusts the test roots")
        #expect(accepted[1] >= 15, "the system-store verifier was not caught: \(accepted[1]) anchors-removed vectors accepted")
    }

    /// The host trust store's own group (issue 43), run alone: the hostile
    /// store made from it holds its CA's root (named by its anchored
    /// vectors only), so the system-store verifier accepts every refused
    /// vector of the group under `--hostile-trust-store` and none without;
    /// the reference passes the group either way.
    @Test(.enabled(if: Locations.adapterPython != nil, Comment(rawValue: Locations.adapterPythonMissingReason)))
    func theHostStoreGroupStandsOnItsOwn() throws {
        let python = try #require(Locations.adapterPython)
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var file = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.attestations))) as? [String: Any])
        let group = try #require((file["testGroups"] as? [[String: Any]])?.last)
        let tests = try #require(group["tests"] as? [[String: Any]])
        #expect(
            tests.allSatisfy { ($0["flags"] as? [String])?.contains("HostTrustStore") == true },
            "the last group is not the host-store group")
        file["testGroups"] = [group]
        file["numberOfTests"] = tests.count
        let alone = folder.appendingPathComponent("host-store.json")
        try JSONSerialization.data(withJSONObject: file).write(to: alone)
        let command = "\(python) \(Self.adapter("system_store_adapter.py"))"
        var caught: [[String]] = []
        for hostile in [false, true] {
            let json = folder.appendingPathComponent("run-\(hostile).json")
            let outcome = try CLI.run(
                ["run", "--only", "--fixtures", alone.path, "--quiet", "--adapter", command, "--json", json.path]
                    + (hostile ? ["--hostile-trust-store"] : []), timeout: 120)
            #expect(outcome.status == 1, "\(outcome)")
            let cases = try Self.cases(json)
            #expect(cases.count == 6)
            caught.append(cases.filter { $0["acceptedInvalid"]?.boolValue == true }.compactMap { $0["id"]?.stringValue }.sorted())
        }
        #expect(caught[0] == [], "accepted without the hostile store: the host's own store trusts the host-store CA")
        #expect(
            caught[1] == [
                "attestation-anchors-removed-host-store::development", "attestation-anchors-removed-host-store::production",
                "attestation-host-store::development-other-anchor", "attestation-host-store::production-other-anchor",
            ])
        let reference = try CLI.run(["run", "--only", "--fixtures", alone.path, "--quiet"])
        #expect(reference.status == 0, "\(reference)")
    }

    @Test(.enabled(if: Locations.adapterPython != nil, Comment(rawValue: Locations.adapterPythonMissingReason)))
    func matrixSetsTheHostileStoreForItsAdapters() throws {
        let python = try #require(Locations.adapterPython)
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("matrix.json")
        let outcome = try CLI.run(
            [
                "matrix", "--only", "--fixtures", Self.attestations, "--quiet", "--hostile-trust-store", "--adapter",
                "system=\(python) \(Self.adapter("system_store_adapter.py"))", "--json", json.path,
            ], timeout: 300)
        #expect(outcome.status == 0, "\(outcome)")
        let rows = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: json))["rows"]?.arrayValue ?? []
        let caught = rows.filter {
            $0["id"]?.stringValue?.contains("-anchors-removed") == true
                && $0["results"]?["system"]?["outcome"]?.stringValue == "acceptedInvalid"
        }
        #expect(caught.count >= 15, "\(caught.count)")
    }

    /// Done-when of issue 25: an adapter that trusts only Apple's roots
    /// passes the real-root vectors and refuses every anchors-removed one.
    @Test(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
    func anAppleRootsOnlyVerifierPassesTheRealRootsAndRefusesTheRemovedAnchors() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("run.json")
        let command = "python3 \(Self.adapter("apple_roots_only_adapter.py")) \(CLI.binary.path)"
        let outcome = try CLI.run(
            [
                "run", "--quiet", "--family", "app-attest-attestation", "--family", "app-attest-assertion",
                "--family", "app-attest-receipt", "--adapter", command, "--json", json.path,
            ], timeout: 600)
        #expect(outcome.status == 1, "\(outcome)")
        let cases = try Self.cases(json)
        let real = cases.filter { $0["file"]?.stringValue?.contains("Fixtures/real/") == true }
        #expect(real.count >= 200)
        for failed in real where failed["grade"]?.stringValue != "pass" {
            Issue.record("real-root vector \(failed["id"]?.stringValue ?? "?"): \(failed["grade"]?.stringValue ?? "?")")
        }
        let removed = Self.anchorsRemoved(cases)
        #expect(removed.count >= 80)
        for failed in removed where failed["grade"]?.stringValue != "pass" {
            Issue.record("anchors-removed vector \(failed["id"]?.stringValue ?? "?"): \(failed["grade"]?.stringValue ?? "?")")
        }
        // It does ignore its anchors: the suite's valid test-CA vectors are refused.
        #expect(cases.filter { $0["expected"]?.stringValue == "valid" && $0["grade"]?.stringValue == "fail" }.count >= 50)
    }
}
