import AdapterHost
import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// Issue 41, item 4 ("one way to refuse, everywhere"): the rough edges a
/// newcomer met, each beyond what its row of `HostileArgumentTests` (exit 2,
/// one line) can see — what the line says, what was or was not written, how
/// long a run takes, what the headline reads.
@Suite struct OneWayToRefuseTests {
    static let appId = "ABCDE12345.org.example.app"

    /// Says hello for cbor, then answers every vector `valid` except the
    /// ones in `refuse` (hex), which it refuses with `code` `truncated`.
    static func adapter(refusing refuse: [String] = []) -> String {
        let list = refuse.map { "'\($0)'" }.joined(separator: ", ")
        return
            "exec python3 -c \"import sys, json; print(json.dumps({'adapter': 'one-way', 'version': '1', 'families': ['cbor'], 'codes': True}), flush=True)\n"
            + "for l in sys.stdin:\n r = json.loads(l); bad = r['input']['cborHex'] in [\(list)]\n"
            + " print(json.dumps({'id': r['id'], 'result': 'invalid' if bad else 'valid', 'error': 'short', 'code': 'truncated'}), flush=True)\""
    }

    /// Says hello, then dies on every request.
    static let crashingAdapter =
        "exec python3 -c \"import sys, json; print(json.dumps({'adapter': 'crasher', 'version': '1', "
        + "'families': ['cbor']}), flush=True); sys.stdin.readline(); sys.exit(3)\""

    static let vectors = """
        {"schema": "trustsuite-vectors/1", "family": "cbor", "title": "one way", "source": "test", "notes": {}, "numberOfTests": 3,
         "testGroups": [{"comment": "g", "defaults": {"mode": "wellFormed"}, "tests": [
          {"tcId": 1, "id": "oneway::1", "flags": [], "input": {"cborHex": "00"}, "result": "valid"},
          {"tcId": 2, "id": "oneway::2", "flags": [], "input": {"cborHex": "ff"}, "result": "invalid", "error": "unexpectedBreak"},
          {"tcId": 3, "id": "oneway::3", "flags": [], "input": {"cborHex": "1c"}, "result": "invalid", "error": "reservedAdditionalInfo"}]}]}
        """

    static func expectOneLine(_ outcome: CLI.Outcome, status: Int32 = 2, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!outcome.signaled && outcome.status == status, "\(outcome)", sourceLocation: sourceLocation)
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.hasPrefix("trustsuite: "), "\(outcome)", sourceLocation: sourceLocation)
    }

    // MARK: device init and generate

    /// A mistyped parent is refused and nothing is created; an existing
    /// parent gets its state folder.
    @Test func deviceInitCreatesTheStateFolderButNoParent() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nested = folder.appendingPathComponent("typo/phone")
        let refused = try CLI.run(["device", "init", "--state", nested.path, "--app-id", Self.appId, "--environment", "production"])
        Self.expectOneLine(refused)
        #expect(refused.stderr.contains("does not exist"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("typo").path), "a parent folder was created")
        let made = try CLI.run([
            "device", "init", "--state", folder.appendingPathComponent("phone").path, "--app-id", Self.appId,
            "--environment", "production",
        ])
        #expect(made.status == 0, "\(made)")
    }

    /// Foundation's errors (a file where a folder belongs, a folder that
    /// cannot be made) come out as the path and the system's reason, never
    /// as `Error Domain=NSCocoaErrorDomain Code=… UserInfo={…}`.
    @Test(arguments: [
        ["device", "init", "--state", "/proc/trustsuite-refuse-phone", "--app-id", appId, "--environment", "production"],
        ["generate", "app-attest", "--out", "/proc/trustsuite-refuse"],
        ["generate", "app-attest", "--out", "/dev/null/vectors"],
    ])
    func fileSystemErrorsAreOneLineWithTheSystemsReason(_ arguments: [String]) throws {
        let outcome = try CLI.run(arguments)
        Self.expectOneLine(outcome)
        for raw in ["Error Domain", "NSCocoaErrorDomain", "UserInfo", "NSUnderlying"] {
            #expect(!outcome.stderr.contains(raw), "\(outcome)")
        }
        #expect(outcome.stderr.contains("/proc/trustsuite-refuse") || outcome.stderr.contains("/dev/null"), "names the path: \(outcome)")
    }

    // MARK: arguments

    /// A negative number is refused for being negative (or out of the
    /// option's range), not reported as a missing value.
    @Test(arguments: [
        ["run", "--timeout", "-5", "--adapter", "cat"], ["generate", "app-attest", "--seed", "-1"],
        ["cbor", "decode", "--max-depth", "-1", "--hex", "00"], ["run", "--max-crashes", "-2", "--adapter", "cat"],
        ["serve", "devicecheck", "--port", "-1", "--team", "T", "--key", "K=/dev/null"],
        ["verify", "receipt", "/dev/null", "--time", "2024-01-01T00:00:00Z", "--max-age", "-5"],
    ])
    func negativeNumbersAreNotMissingValues(_ arguments: [String]) throws {
        let outcome = try CLI.run(arguments)
        Self.expectOneLine(outcome)
        #expect(!outcome.stderr.contains("Missing value"), "\(outcome)")
        let number = arguments.first { $0.hasPrefix("-") && $0.dropFirst().allSatisfy(\.isNumber) } ?? "-"
        #expect(outcome.stderr.contains(number) || outcome.stderr.contains("must"), "\(outcome)")
    }

    /// A typo in --skip-flag is refused with a suggestion and the flags that
    /// exist; a real flag leaves its vectors out.
    @Test func aSkipFlagNoVectorCarriesIsRefused() throws {
        let typo = try CLI.run(["run", "--family", "cbor", "--skip-flag", "ClockTolerence"])
        Self.expectOneLine(typo)
        #expect(typo.stderr.contains("did you mean ClockTolerance?"), "\(typo)")
        #expect(typo.stderr.contains("LimitPolicy") && typo.stderr.contains("AnchorsRemoved"), "lists the flags: \(typo)")
        // A flag of another family is still a flag.
        let other = try CLI.run(["run", "--family", "cbor", "--skip-flag", "LimitPolicy", "--skip-flag", "ClockTolerance", "--quiet"])
        #expect(other.status == 0, "\(other)")
    }

    // MARK: matrix

    /// A --baseline that is not a matrix is refused before anything runs:
    /// nothing on stdout, no matrix written.
    @Test func matrixChecksTheBaselineFirst() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = try CLI.file("old.json", Array(#"{"schema": "something else"}"#.utf8), in: folder)
        let out = folder.appendingPathComponent("matrix.json")
        let outcome = try CLI.run([
            "matrix", "--family", "cbor", "--adapter", "one=\(Self.adapter())", "--baseline", bad.path,
            "--json", out.path, "--quiet",
        ])
        Self.expectOneLine(outcome)
        #expect(outcome.stderr.contains("--baseline"), "\(outcome)")
        #expect(outcome.stdout.isEmpty, "the run went ahead: \(outcome)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// No adapter could start: exit 2, one line naming each; when one of
    /// two starts, the matrix is written and the other is noted.
    @Test func matrixWithNoAdapterStartedDidNotHappen() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("matrix.json")
        let none = try CLI.run([
            "matrix", "--family", "cbor", "--adapter", "gone=exec /nonexistent/adapter", "--adapter", "mute=exit 3",
            "--json", out.path, "--quiet",
        ])
        Self.expectOneLine(none)
        #expect(none.stderr.contains("no adapter could start") && none.stderr.contains("gone:") && none.stderr.contains("mute:"), "\(none)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let one = try CLI.run(
            [
                "matrix", "--family", "cbor", "--adapter", "gone=exec /nonexistent/adapter", "--adapter",
                "one=\(Self.adapter())", "--json", out.path, "--quiet",
            ], timeout: 120)
        #expect(one.status == 0, "\(one)")
        #expect(one.stderr.contains("gone could not be run"), "\(one)")
        #expect(FileManager.default.fileExists(atPath: out.path))
    }

    // MARK: adapters that crash

    /// An adapter that dies on every case is given up after --max-crashes
    /// cases in a row (10 by default), says so, and the run ends in seconds.
    @Test func anAdapterThatCrashesOnEveryCaseIsGivenUp() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("run.json")
        // Counted, not timed: 3 restarts then every other case not run (below);
        // a run that restarted the adapter for every vector is killed at 120 s.
        let outcome = try CLI.run(
            [
                "run", "--family", "cbor", "--quiet", "--adapter", Self.crashingAdapter, "--max-crashes", "3",
                "--json", json.path,
            ], timeout: 120)
        #expect(!outcome.signaled && outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains("gave up on adapter crasher 1 after 3 cases in a row"), "\(outcome)")
        let cases = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: json))["cases"]?.arrayValue ?? []
        let notRun = cases.filter { $0["message"]?.stringValue?.hasPrefix("not run: the adapter was given up") == true }
        #expect(cases.count > 100 && notRun.count == cases.count - 3, "\(notRun.count) of \(cases.count)")

        let byDefault = try CLI.run(["run", "--family", "cbor", "--quiet", "--adapter", Self.crashingAdapter], timeout: 120)
        #expect(byDefault.stderr.contains("after \(AdapterSubject.defaultMaxConsecutiveCrashes) cases in a row"), "\(byDefault)")
    }

    // MARK: gating

    /// --write-expected lists the run's findings; gated on that file the
    /// run passes, and its headline says PASS (it said FAIL and exited 0).
    @Test func writeExpectedThenGateOnIt() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = try CLI.file("oneway.json", Array(Self.vectors.utf8), in: folder)
        let expected = folder.appendingPathComponent("expected.json")
        let adapter = Self.adapter(refusing: ["1c"])
        let first = try CLI.run([
            "run", "--only", "--fixtures", fixtures.path, "--quiet", "--adapter", adapter,
            "--write-expected", expected.path,
        ])
        #expect(first.status == 1, "\(first)")
        let written = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: expected))
        #expect(written.keys.sorted() == ["oneway::2", "oneway::3"], "\(written)")
        #expect(written["oneway::3"]?.hasPrefix("wrongReason: ") == true, "\(written)")

        let gated = try CLI.run([
            "run", "--only", "--fixtures", fixtures.path, "--quiet", "--adapter", adapter, "--expected", expected.path,
        ])
        #expect(gated.status == 0, "\(gated)")
        let headlines = gated.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") }
        #expect(headlines.count == 1 && headlines.first?.hasPrefix("PASS (every finding is an expected failure") == true, "\(gated)")

        // A finding the file does not list: FAIL, exit 1.
        try Data(#"{"oneway::2": "accepts a stray break"}"#.utf8).write(to: expected)
        let failing = try CLI.run([
            "run", "--only", "--fixtures", fixtures.path, "--quiet", "--adapter", adapter, "--expected", expected.path,
        ])
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.stdout.split(separator: "\n").contains { $0.hasPrefix("FAIL (against the expected failures") }, "\(failing)")
    }

    // MARK: SARIF

    /// Run from outside the checkout, the built-in vectors are located
    /// relative to it (base id TRUSTSUITE_ROOT), and no location is absolute.
    @Test func sarifLocationsAreNeverAbsolute() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sarif = folder.appendingPathComponent("run.sarif")
        let outcome = try CLI.run(
            ["run", "--family", "cbor", "--quiet", "--adapter", Self.adapter(), "--sarif", sarif.path],
            timeout: 120, directory: folder)
        #expect(outcome.status == 1, "\(outcome)")
        let log = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: sarif))
        let run = try #require(log["runs"]?.arrayValue?.first)
        let locations = (run["results"]?.arrayValue ?? []).compactMap {
            $0["locations"]?.arrayValue?.first?["physicalLocation"]?["artifactLocation"]
        }
        #expect(!locations.isEmpty)
        for location in locations {
            let uri = location["uri"]?.stringValue ?? ""
            #expect(!uri.hasPrefix("/") && !uri.contains(Checkout.root.path), "\(uri)")
            #expect(uri.hasPrefix("Fixtures/cbor/") && location["uriBaseId"]?.stringValue == "TRUSTSUITE_ROOT", "\(location)")
        }
        #expect(run["originalUriBaseIds"]?["TRUSTSUITE_ROOT"] != nil)
        #expect(!String(decoding: try Data(contentsOf: sarif), as: UTF8.self).contains(Checkout.root.path + "/Fixtures"))
    }
}
