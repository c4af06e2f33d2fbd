import ConformanceReports
import AdapterHost
import ArgumentParser
import ConformanceKit
import VectorContract
import TrustSuiteSupport
import Foundation
import ReferenceSubjects

extension Family: ExpressibleByArgument {}

/// Which vectors a run takes: shared by `run` and `matrix`.
struct VectorSelection: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Run only this family (repeatable).", valueName: "family"))
    var family: [Family] = []

    @Option(name: .long, help: ArgumentHelp("Also run these vector files or folders (repeatable).", valueName: "path"))
    var fixtures: [String] = []

    @Flag(name: .long, help: "Run only the --fixtures paths, not the built-in Fixtures/.")
    var only = false

    @Option(
        name: .customLong("skip-flag"),
        help: ArgumentHelp(
            "Leave out the vectors carrying this flag, e.g. ClockTolerance, LimitPolicy, ReceiptRequired (repeatable; "
                + "a flag no vector carries is refused, with the list of those that exist).", valueName: "flag"))
    var skipFlag: [String] = []

    /// The selected vectors, in file order (possibly none).
    func vectors() throws -> [Vector] { try load().vectors }

    /// The selected vectors, the files they come from (their notes) and where those were found.
    func load() throws -> (files: [VectorFile], vectors: [Vector], source: VectorSource) {
        let (all, origins) = try FixtureLocator.load(extra: fixtures, onlyGiven: only, families: [])
        var known = Set(all.flatMap(\.vectors).flatMap(\.flags))
        // With --only, a flag of the built-in vectors is a name too (skipping it leaves nothing out).
        if only, !skipFlag.allSatisfy(known.contains), let folder = FixtureLocator.defaultFolder(),
            let builtIn = try? VectorLoader.load(paths: [folder.path])
        {
            known.formUnion(builtIn.flatMap(\.vectors).flatMap(\.flags))
        }
        try Self.checkSkipFlags(skipFlag, known: known)
        let files = family.isEmpty ? all : all.filter { family.contains($0.family) }
        let skipped = Set(skipFlag)
        return (
            files, files.flatMap(\.vectors).filter { skipped.isDisjoint(with: $0.flags) }, FixtureLocator.source(files, origins: origins)
        )
    }

    /// Refuses a `--skip-flag` that no vector carries (of any family, in the
    /// files run or the built-in ones): a typo would otherwise leave out
    /// nothing, silently (issue 41).
    static func checkSkipFlags(_ names: [String], known: Set<String>) throws {
        for name in names where !known.contains(name) {
            let sorted = known.sorted { $0.lowercased() < $1.lowercased() }
            let close = sorted.filter { EditDistance.between($0.lowercased(), name.lowercased()) <= 2 }
            let hint = close.isEmpty ? "" : " (did you mean \(close.joined(separator: " or "))?)"
            throw CLIError(
                "--skip-flag \"\(name.prefix(100))\": no vector carries this flag\(hint); the flags are: "
                    + sorted.joined(separator: ", "))
        }
    }

    /// Why a selection is empty, for the "nothing was tested" line.
    var emptyReason: String {
        var filters: [String] = []
        if !family.isEmpty { filters.append("--family " + family.map(\.rawValue).joined(separator: ",")) }
        if !skipFlag.isEmpty { filters.append("--skip-flag " + skipFlag.joined(separator: ",")) }
        return filters.isEmpty ? "the vector files hold no vector" : "no vector matches " + filters.joined(separator: " ")
    }
}

/// How third-party adapters are run: shared by `run` and `matrix`.
struct AdapterOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds an adapter may take per vector before it is restarted (above 0, at most 3600).",
            valueName: "seconds"))
    var timeout: Double = 10

    @Flag(name: .long, help: "Show every request sent to an adapter and every reply line on stderr.")
    var verbose = false

    @Flag(
        name: .customLong("hostile-trust-store"),
        help: ArgumentHelp(
            "Start each adapter with SSL_CERT_FILE and SSL_CERT_DIR pointing at a bundle of the suite's test roots "
                + "(removed after the run): a library that trusts the host's store catches itself on the anchors-removed vectors."))
    var hostileTrustStore = false

    @Option(
        name: .customLong("max-crashes"),
        help: ArgumentHelp(
            "Give an adapter up after this many cases in a row that crash it, hang it or get an untrusted reply: its remaining "
                + "cases are errors, not run (0: never give up).", valueName: "n"))
    var maxCrashes: Int = AdapterSubject.defaultMaxConsecutiveCrashes

    /// Longest per-vector adapter timeout accepted (an hour): larger values
    /// are mistakes, and would overflow the millisecond duration.
    static let maxTimeout: Double = 3600

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= Self.maxTimeout else {
            throw ValidationError("--timeout must be a number of seconds above 0 and at most \(Int(Self.maxTimeout))")
        }
        guard maxCrashes >= 0 else { throw ValidationError("--max-crashes must be 0 (never give up) or more") }
    }

    /// The hostile trust store of `--hostile-trust-store` for `vectors`, nil
    /// without the flag; the caller removes it when the run is over.
    func trustStore(for vectors: [Vector], quiet: Bool) throws -> HostileTrustStore? {
        guard hostileTrustStore else { return nil }
        let store: HostileTrustStore
        do { store = try HostileTrustStore.make(for: vectors) } catch {
            throw CLIError("cannot write the hostile trust store: \(error.localizedDescription)")
        }
        if !quiet { Console.note("hostile trust store: \(store.roots) test roots in SSL_CERT_FILE and SSL_CERT_DIR of each adapter") }
        return store
    }

    /// Starts `command` as an adapter; adapters die with this process. Its
    /// error map is `errorMap`, else the `error-map.json` beside its script;
    /// `store` sets its SSL_CERT_FILE and SSL_CERT_DIR.
    func launch(_ command: String, errorMap: String? = nil, store: HostileTrustStore? = nil) async throws -> AdapterSubject {
        ProcessGroups.shared.stopOnSignals()
        var log: (@Sendable (String) -> Void)? = nil
        if verbose {
            log = { line in FileHandle.standardError.write(Data("adapter \(TerminalText.escape(line))\n".utf8)) }
        }
        var map: ErrorMap? = nil
        if let path = errorMap ?? ErrorMap.discover(command: command) {
            do { map = try ErrorMap.load(path) } catch { throw CLIError(error.description) }
        }
        do {
            return try await AdapterSubject.launch(
                command: command, timeout: .milliseconds(Int64(timeout * 1000)),
                errorMap: map, environment: store?.environment ?? [:],
                maxConsecutiveCrashes: maxCrashes, log: log)
        } catch {
            throw CLIError("\(error)")
        }
    }

    /// Runs `vectors` against an adapter, stops its process group and keeps
    /// its stderr in the report.
    func run(_ subject: AdapterSubject, _ vectors: [Vector], progress: Progress, quiet: Bool) async -> RunReport {
        var report = await Runner(subject: subject).run(vectors, progress: progress.callback)
        await subject.stop()
        let stderr = await subject.stderrText()
        report.subjectStderr = stderr
        if await subject.gaveUp() {
            // Said even with --quiet: the report's errors would otherwise look like the library's.
            let skipped = report.cases.filter { $0.message.hasPrefix("not run: the adapter was given up") }.count
            Console.note(
                "gave up on adapter \(subject.name) after \(maxCrashes) cases in a row crashed it, hung it or got an "
                    + "untrusted reply; its last \(skipped) cases were not run (errors; --max-crashes N sets the limit, 0 never gives up)")
        }
        guard !quiet else { return report }
        let restarts = await subject.restarts()
        if restarts > 0 {
            Console.note(
                "adapter \(subject.name) was restarted \(restarts) time\(restarts == 1 ? "" : "s") (crash, timeout or untrusted reply)")
        }
        if !stderr.isEmpty {
            let last = stderr.split(separator: "\n").last.map(String.init) ?? ""
            Console.note("adapter \(subject.name) wrote to stderr (kept in the --json report); last line: \(last.prefix(300))")
        }
        return report
    }
}

/// A progress line on stderr when it is a terminal.
struct Progress {
    let label: String
    let enabled: Bool

    init(label: String = "", quiet: Bool) {
        self.label = label
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    var callback: (@Sendable (RunProgress) -> Void)? {
        guard enabled else { return nil }
        let label = self.label
        return { progress in
            guard progress.done % 25 == 0 || progress.done == progress.total else { return }
            FileHandle.standardError.write(Data("\r\(label)\(progress.done)/\(progress.total) vectors".utf8))
            if progress.done == progress.total { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }
}

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run vectors against the reference implementation (or an adapter) and print a scorecard.",
        discussion: """
            By default every vector file under Fixtures/ runs against the reference. \
            Exit status: 0 every graded vector passed; 1 any failed or errored, or nothing was graded \
            (no vector selected, or every one unsupported); 2 the run could not happen.
            """
    )

    @OptionGroup var selection: VectorSelection

    @Option(name: .long, help: ArgumentHelp("Write the JSON report to this file.", valueName: "file"))
    var json: String?

    @Option(name: .long, help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run a third-party implementation through the JSON-lines adapter protocol instead of the reference "
                + "(run by /bin/sh -c in a process group of its own).",
            valueName: "command"))
    var adapter: String?

    @OptionGroup var adapterOptions: AdapterOptions

    @OptionGroup var gate: GateOptions

    @Flag(name: .long, help: "No progress line on stderr.")
    var quiet = false

    func run() async throws {
        for path in [json, junit, gate.sarif, gate.writeExpected].compactMap({ $0 }) { try OutputFile.check(path) }
        let expected = try gate.expectedFailures()
        let (files, vectors, source) = try selection.load()
        if adapterOptions.hostileTrustStore && adapter == nil {
            throw CLIError("--hostile-trust-store needs --adapter: the reference reads no trust store")
        }
        let store = try adapterOptions.trustStore(for: vectors, quiet: quiet)
        defer { store?.remove() }
        let progress = Progress(quiet: quiet)
        var report: RunReport
        if let adapter {
            let subject = try await adapterOptions.launch(adapter, errorMap: gate.errorMap, store: store)
            report = await adapterOptions.run(subject, vectors, progress: progress, quiet: quiet)
        } else {
            report = await Runner(subject: ReferenceSubject()).run(vectors, progress: progress.callback)
        }
        report.vectorSource = source
        if vectors.isEmpty {
            Console.note("nothing was tested: \(selection.emptyReason)")
        }
        let verdict = expected?.check(report)
        // Gated, the headline is the gate's: PASS when every finding is listed.
        var headline: String? = nil
        if let expected, let verdict {
            headline =
                verdict.exitCode(graded: report.graded) == 0
                ? "PASS (every finding is an expected failure of \(expected.path))"
                : "FAIL (against the expected failures of \(expected.path))"
        }
        print(Reports.scorecard(report, headline: headline))
        if let json { try OutputFile.write(Reports.json(report), to: json) }
        if let junit { try OutputFile.write(Reports.junit(report), to: junit) }
        if let sarif = gate.sarif {
            try OutputFile.write(
                SARIF.log(
                    [SARIF.Input(name: adapter == nil ? "reference" : report.subject, report: report)],
                    files: files), to: sarif)
        }
        if let path = gate.writeExpected {
            try OutputFile.write(ExpectedFailures.file(from: report), to: path)
            Console.note(
                "wrote \(report.cases.filter(\.grade.isFinding).count) findings to \(path) (an expected-failures file for --expected)")
        }
        guard let expected, let verdict else { throw ExitCode(report.exitCode) }
        print(verdict.lines(path: expected.path).joined(separator: "\n"))
        throw ExitCode(verdict.exitCode(graded: report.graded))
    }
}

/// Report files: checked before a run starts, written atomically after it.
enum OutputFile {
    static func check(_ path: String) throws {
        guard !path.isEmpty else { throw CLIError("an output file name is empty") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw CLIError("cannot write \(path): it is a directory") }
            guard FileManager.default.isWritableFile(atPath: path) else { throw CLIError("cannot write \(path): not writable") }
            return
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError("cannot write \(path): folder \(parent) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: parent) else {
            throw CLIError("cannot write \(path): folder \(parent) is not writable")
        }
    }

    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

/// One-line messages on stderr; they may quote an adapter (its stderr, its
/// name), so control characters are escaped and the line stays one line.
enum Console {
    /// Prints the refusal and exits: only `TrustSuiteCommand.main` calls it
    /// (everything else throws ``CLIError``).
    static func fail(_ message: String, status: Int32 = 2) -> Never {
        FileHandle.standardError.write(Data("trustsuite: \(TerminalText.escape(message))\n".utf8))
        exit(status)
    }

    static func note(_ message: String) {
        FileHandle.standardError.write(Data("trustsuite: \(TerminalText.escape(message))\n".utf8))
    }
}
