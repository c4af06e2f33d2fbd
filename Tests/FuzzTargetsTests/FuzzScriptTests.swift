import Foundation
import Testing
import TestSupport

/// The scripts of Fuzz/ as a user meets them (issue 41): `--help` prints
/// the usage and exits 0 for every one, and a campaign writes nothing
/// tracked unless asked to (`--in-tree`).
@Suite struct FuzzScriptTests {
    struct Outcome: CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String
        var description: String { "status \(status)\nstdout: \(stdout.suffix(2000))\nstderr: \(stderr.suffix(2000))" }
    }

    /// Runs `arguments` (the first names the program, found on PATH) in
    /// `directory`; killed after `timeout` seconds.
    static func run(_ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 60) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read while it runs: a full pipe would stall it.
        let outData = Collected(), errData = Collected()
        let group = DispatchGroup()
        for (pipe, box) in [(output, outData), (errors, errData)] {
            group.enter()
            DispatchQueue.global().async {
                box.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(-process.processIdentifier, SIGKILL); process.terminate() }
        process.waitUntilExit()
        group.wait()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: outData.get(), as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    /// Every script of Fuzz/ and Fuzz/oss-fuzz/.
    static let scripts: [String] = {
        var found: [String] = []
        for folder in ["", "oss-fuzz/"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: Locations.fuzz.appendingPathComponent(folder).path)) ?? []
            found += names.filter { $0.hasSuffix(".sh") || $0.hasSuffix(".py") }.map { folder + $0 }
        }
        return found.sorted()
    }()

    @Test func theScriptsAreAllHere() {
        #expect(
            Set(["campaign.sh", "ci.sh", "coverage.sh", "run.sh", "options.sh", "make-seeds.py", "oss-fuzz/build.sh"])
                .isSubset(of: Set(Self.scripts)), "\(Self.scripts)")
    }

    /// `--help` prints the script's usage on stdout and exits 0 at once
    /// (it failed or did something else for run.sh, coverage.sh and
    /// make-seeds.py without cbor2), building nothing.
    @Test(arguments: scripts)
    func helpPrintsUsage(_ script: String) throws {
        let path = Locations.fuzz.appendingPathComponent(script).path
        let outcome = try Self.run([script.hasSuffix(".py") ? "python3" : "bash", path, "--help"], timeout: 20)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.isEmpty, "\(outcome)")
        #expect(outcome.stdout.split(separator: "\n").count >= 3, "\(outcome)")
        #expect(!outcome.stdout.contains("#!"), "\(outcome)")
    }

    /// A campaign over a stand-in harness (a script that acts as libFuzzer:
    /// adds an input to the working corpus, leaves a crash, copies on merge)
    /// in a copy of Fuzz/'s scripts: the committed corpus, FailCases and the
    /// log stay as they were, and the results are in the untracked folder.
    @Test func aCampaignWritesNothingTrackedByDefault() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-campaign-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fuzz = root.appendingPathComponent("Fuzz"), bin = root.appendingPathComponent("bin")
        let manager = FileManager.default
        for folder in ["Sources/FuzzStandIn", "Corpus/FuzzStandIn", "FailCases"] {
            try manager.createDirectory(at: fuzz.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try manager.createDirectory(at: bin, withIntermediateDirectories: true)
        for script in ["campaign.sh", "options.sh"] {
            try manager.copyItem(at: Locations.fuzz.appendingPathComponent(script), to: fuzz.appendingPathComponent(script))
        }
        try Data("seed".utf8).write(to: fuzz.appendingPathComponent("Corpus/FuzzStandIn/seed"))
        let log = "date\tharness\twall-s\tworkers\tcpu-s\texecutions\tcov\tft\tcorpus\tcrashes\n"
        try Data(log.utf8).write(to: fuzz.appendingPathComponent("campaign-log.tsv"))
        let standIn = bin.appendingPathComponent("FuzzStandIn")
        try Data(
            """
            #!/usr/bin/env bash
            # libFuzzer's part in a campaign: run, minimize a crash, merge.
            dirs=(); prefix=""; exact=""; merge=0; minimize=0
            for arg in "$@"; do
              case "$arg" in
                -artifact_prefix=*) prefix="${arg#-artifact_prefix=}" ;;
                -exact_artifact_path=*) exact="${arg#-exact_artifact_path=}" ;;
                -merge=1) merge=1 ;;
                -minimize_crash=1) minimize=1 ;;
                -*) ;;
                *) dirs+=("$arg") ;;
              esac
            done
            if [ "$merge" = 1 ]; then cp "${dirs[1]}"/* "${dirs[0]}"/; exit 0; fi
            if [ "$minimize" = 1 ]; then cp "${dirs[0]}" "$exact"; exit 0; fi
            echo found >"${dirs[0]}/new-input"
            echo crash >"${prefix}crash-standin"
            echo "#42 DONE cov: 7 ft: 9 corp: 2/10b exec/s: 42 rss: 1Mb"
            """.utf8
        ).write(to: standIn)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn.path)

        let outcome = try Self.run(
            [
                "bash", fuzz.appendingPathComponent("campaign.sh").path, "--bin", bin.path, "--seconds", "1",
                "--jobs", "1", "FuzzStandIn",
            ], timeout: 120)
        #expect(outcome.status == 0, "\(outcome)")
        // Tracked: as they were.
        #expect(try manager.contentsOfDirectory(atPath: fuzz.appendingPathComponent("Corpus/FuzzStandIn").path) == ["seed"])
        #expect(try manager.contentsOfDirectory(atPath: fuzz.appendingPathComponent("FailCases").path).isEmpty)
        #expect(try String(contentsOf: fuzz.appendingPathComponent("campaign-log.tsv"), encoding: .utf8) == log)
        // Untracked: the merged corpus (committed seeds and the new input), the crash, the log line.
        let results = fuzz.appendingPathComponent(".build/campaign-results")
        #expect(
            try manager.contentsOfDirectory(atPath: results.appendingPathComponent("Corpus/FuzzStandIn").path).sorted()
                == ["new-input", "seed"])
        #expect(try manager.contentsOfDirectory(atPath: results.appendingPathComponent("FailCases/FuzzStandIn").path) == ["crash-standin"])
        let lines = try String(contentsOf: results.appendingPathComponent("campaign-log.tsv"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.last?.contains("\tFuzzStandIn\t") == true, "\(lines)")
        #expect(outcome.stdout.contains("nothing tracked changed"), "\(outcome)")

        // --in-tree writes into the tracked folders, as a campaign to commit does.
        let inTree = try Self.run(
            [
                "bash", fuzz.appendingPathComponent("campaign.sh").path, "--bin", bin.path, "--seconds", "1",
                "--jobs", "1", "--in-tree", "FuzzStandIn",
            ], timeout: 120)
        #expect(inTree.status == 0, "\(inTree)")
        #expect(
            try manager.contentsOfDirectory(atPath: fuzz.appendingPathComponent("Corpus/FuzzStandIn").path).sorted() == [
                "new-input", "seed",
            ])
        #expect(try String(contentsOf: fuzz.appendingPathComponent("campaign-log.tsv"), encoding: .utf8).split(separator: "\n").count == 2)
    }
}

/// Bytes handed over from a reading thread.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
