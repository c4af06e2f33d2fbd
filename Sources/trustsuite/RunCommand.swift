import ArgumentParser
import ConformanceKit
import Foundation
import ReferenceSubjects

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run vectors against the reference implementation and print a scorecard.",
        discussion: """
            By default every vector file under Fixtures/ runs against the reference. \
            Exit status: 0 every graded vector passed, 1 any failed or errored, 2 the run could not happen.
            """
    )

    @Option(name: .long, help: ArgumentHelp("Run only this family (repeatable).", valueName: "family"))
    var family: [String] = []

    @Option(name: .long, help: ArgumentHelp("Also run these vector files or folders (repeatable).", valueName: "path"))
    var fixtures: [String] = []

    @Flag(name: .long, help: "Run only the --fixtures paths, not the built-in Fixtures/.")
    var only = false

    @Option(name: .customLong("skip-flag"), help: ArgumentHelp(
        "Leave out the vectors carrying this flag, e.g. ClockTolerance, LimitPolicy, ReceiptRequired (repeatable).", valueName: "flag"))
    var skipFlag: [String] = []

    @Option(name: .long, help: ArgumentHelp("Write the JSON report to this file.", valueName: "file"))
    var json: String?

    @Option(name: .long, help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(name: .long, help: ArgumentHelp(
        "Run a third-party implementation through the JSON-lines adapter protocol instead of the reference.",
        valueName: "command"))
    var adapter: String?

    @Option(name: .long, help: ArgumentHelp("Seconds an adapter may take per vector before it is restarted.", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(name: .long, help: "No progress line on stderr.")
    var quiet = false

    func run() async throws {
        do {
            let families = try family.map { name throws(CLIError) -> Family in
                guard let f = Family(rawValue: name) else {
                    throw CLIError("unknown family \"\(name)\"; known: "
                                   + Family.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return f
            }
            let files = try FixtureLocator.load(extra: fixtures, onlyGiven: only, families: families)
            let skipped = Set(skipFlag)
            let vectors = files.flatMap(\.vectors).filter { skipped.isDisjoint(with: $0.flags) }
            guard !vectors.isEmpty else { throw CLIError("no vectors to run") }
            let showProgress = !quiet && isatty(STDERR_FILENO) == 1
            let subject: any Subject
            var adapterSubject: AdapterSubject? = nil
            if let adapter {
                guard timeout.isFinite, timeout > 0, timeout <= Self.maxTimeout else {
                    throw CLIError("--timeout must be a number of seconds above 0 and at most \(Int(Self.maxTimeout))")
                }
                do {
                    let launched = try await AdapterSubject.launch(command: adapter, timeout: .milliseconds(Int64(timeout * 1000)))
                    adapterSubject = launched
                    subject = launched
                } catch {
                    throw CLIError("\(error)")
                }
            } else {
                subject = ReferenceSubject()
            }
            var report = await Runner(subject: subject).run(vectors) { progress in
                guard showProgress, progress.done % 25 == 0 || progress.done == progress.total else { return }
                FileHandle.standardError.write(Data("\r\(progress.done)/\(progress.total) vectors".utf8))
                if progress.done == progress.total { FileHandle.standardError.write(Data("\n".utf8)) }
            }
            if let adapterSubject {
                await adapterSubject.stop()
                let stderr = await adapterSubject.stderrText()
                report.subjectStderr = stderr
                if !stderr.isEmpty && !quiet {
                    let last = stderr.split(separator: "\n").last.map(String.init) ?? ""
                    FileHandle.standardError.write(Data(
                        "adapter wrote \(stderr.utf8.count) bytes to stderr (kept in the --json report); last line: \(last.prefix(300))\n".utf8))
                }
            }
            print(Reports.scorecard(report))
            if let json { try write(Reports.json(report), to: json) }
            if let junit { try write(Reports.junit(report), to: junit) }
            throw ExitCode(report.exitCode)
        } catch let error as CLIError {
            Console.fail(error.description)
        } catch let error as VectorLoadError {
            Console.fail("bad vector file \(error.description)")
        }
    }

    /// Longest per-vector adapter timeout accepted (an hour): larger values
    /// are mistakes, and would overflow the millisecond duration.
    static let maxTimeout: Double = 3600

    func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CLIError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

/// One-line errors on stderr.
enum Console {
    static func fail(_ message: String, status: Int32 = 2) -> Never {
        FileHandle.standardError.write(Data("trustsuite: \(message)\n".utf8))
        exit(status)
    }
}
