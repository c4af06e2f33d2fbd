import ConformanceKit
import VectorContract
import Foundation
import TrustSuiteSupport
import Testing
import TestSupport

/// `trustsuite run --expected FILE` and `--sarif FILE` end to end
/// (spec/vectors.md, Amendments (round 3)): a third party gates its CI on
/// its list of known failures; a missing or a stale entry fails the run.
@Suite struct GateCommandTests {
    static let vectors = """
        {"schema": "trustsuite-vectors/1", "family": "cbor", "title": "gate", "source": "test", "notes": {}, "numberOfTests": 3,
         "testGroups": [{"comment": "g", "defaults": {"mode": "wellFormed"}, "tests": [
          {"tcId": 1, "id": "gate::1", "flags": [], "input": {"cborHex": "00"}, "result": "valid"},
          {"tcId": 2, "id": "gate::2", "flags": [], "input": {"cborHex": "ff"}, "result": "invalid", "error": "unexpectedBreak"},
          {"tcId": 3, "id": "gate::3", "flags": [], "input": {"cborHex": "1c"}, "result": "invalid", "error": "reservedAdditionalInfo"}]}]}
        """

    /// Accepts everything but `1c`, which it refuses with the wrong code.
    static let adapter =
        "exec python3 -c \"import sys, json; print(json.dumps({'adapter': 'gate', 'version': '1', 'families': ['cbor'], 'codes': True}), flush=True)\n"
        + "for l in sys.stdin:\n r = json.loads(l); bad = r['input']['cborHex'] == '1c'\n"
        + " print(json.dumps({'id': r['id'], 'result': 'invalid' if bad else 'valid', 'error': 'short', 'code': 'truncated'}), flush=True)\""

    func run(expected: [String: String], in folder: URL, extra: [String] = []) throws -> CLI.Outcome {
        let file = try CLI.file("expected-\(UUID().uuidString).json", Array(try JSONEncoder().encode(expected)), in: folder)
        let fixtures = try CLI.file("gate.json", Array(Self.vectors.utf8), in: folder)
        return try CLI.run(
            [
                "run", "--only", "--fixtures", fixtures.path, "--quiet", "--adapter", Self.adapter,
                "--expected", file.path,
            ] + extra)
    }

    @Test func aCompleteListPassesAMissingOrStaleEntryFails() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sarif = folder.appendingPathComponent("run.sarif")
        let complete = try run(
            expected: ["gate::2": "accepts a stray break", "gate::3": "says truncated"], in: folder,
            extra: ["--sarif", sarif.path])
        #expect(complete.status == 0, "\(complete)")
        #expect(complete.stdout.contains("2 listed, 0 not listed, 0 stale"), "\(complete)")

        let missing = try run(expected: ["gate::2": "accepts a stray break"], in: folder)
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stdout.contains("not listed: [wrongReason] gate::3"), "\(missing)")

        let stale = try run(expected: ["gate::1": "once refused", "gate::2": "x", "gate::*3": "y"], in: folder)
        #expect(stale.status == 1, "\(stale)")
        #expect(stale.stdout.contains("stale: \"gate::1\""), "\(stale)")

        let log = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: sarif))
        let results = try #require(log["runs"]?.arrayValue?.first?["results"]?.arrayValue)
        #expect(results.map { $0["level"]?.stringValue ?? "" } == ["error", "warning"])
        #expect(results.first?["properties"]?["input"]?["cborHex"]?.stringValue == "ff")
    }

    @Test func aBrokenExpectedFileStopsTheRunBeforeItStarts() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = try CLI.file("bad.json", Array(#"{"gate::1": 3}"#.utf8), in: folder)
        let outcome = try CLI.run(["run", "--family", "cbor", "--expected", bad.path])
        #expect(outcome.status == 2 && outcome.stderr.contains("the reason must be a string"), "\(outcome)")
    }
}
