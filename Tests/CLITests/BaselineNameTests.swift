import Foundation
import Testing
import TestSupport

/// Issue 44, item 9: renaming an implementation made `matrix --baseline`
/// compare nothing for it and exit 0.
@Suite struct BaselineNameTests {
    @Test func aBaselineImplementationMissingFromTheMatrixIsAnError() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = folder.appendingPathComponent("old.json")
        let old = """
            {"schema": "trustsuite-matrix/1", "rows": [{"id": "cbor-appendix-a::00::wellFormed", "disagreement": false,
              "results": {"reference": {"outcome": "pass"}, "old-name": {"outcome": "pass"}}}]}
            """
        try Data(old.utf8).write(to: baseline)
        let json = folder.appendingPathComponent("m.json").path
        let renamed = try CLI.run([
            "matrix", "--family", "cbor", "--quiet", "--adapter", "new-name=exec '\(CLI.binary.path)' adapter", "--baseline",
            baseline.path, "--json", json,
        ])
        #expect(renamed.status == 2, "\(renamed)")
        #expect(renamed.stderrLines.count == 1 && renamed.stderr.contains("old-name"), "\(renamed)")
        // Refused before anything ran.
        #expect(!FileManager.default.fileExists(atPath: json))

        // The same name compares (and this one did not get worse).
        let same = try CLI.run([
            "matrix", "--family", "cbor", "--quiet", "--adapter", "old-name=exec '\(CLI.binary.path)' adapter", "--baseline",
            baseline.path, "--json", json,
        ])
        #expect(same.status == 0, "\(same)")
        #expect(same.stdout.contains("Against the baseline"), "\(same)")
    }

    /// Names given with `--adapter` are labels, not paths, but two that
    /// differ by an invisible character are refused all the same.
    @Test func anAdapterNameWithAnInvisibleCharacterIsRefused() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("m.json").path
        let outcome = try CLI.run([
            "matrix", "--family", "cbor", "--quiet", "--adapter", "yes=exec '\(CLI.binary.path)' adapter", "--adapter",
            "yes\u{200B}=exec '\(CLI.binary.path)' adapter", "--json", json,
        ])
        #expect(outcome.status == 2 && outcome.stderrLines.count == 1, "\(outcome)")
        #expect(outcome.stderr.contains("invisible"), "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: json))
    }
}
