import AdapterHost
import ConformanceReports
import ArgumentParser
import ConformanceKit
import VectorContract
import Foundation
import ReferenceSubjects
import TrustSuiteSupport

/// The reference and several adapters on the same vectors, side by side.
struct MatrixCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "Run the reference and each adapter on the same vectors and write a results matrix.",
        discussion: """
            Each adapter runs in turn, isolated as in `trustsuite run --adapter` (own process group, \
            restarted after a crash or timeout). The matrix has one row per vector and one column per \
            implementation, rows where implementations disagree first, and a summary per implementation \
            and family. Third parties' wrong answers are findings: exit status 0 when the matrix is \
            written, 1 when the reference itself failed a vector (or, with --baseline, an implementation \
            got worse), 2 when the run could not happen: a bad option or --baseline file (checked before \
            anything runs), or no adapter could start.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An implementation to compare, as NAME='COMMAND' (repeatable).",
            valueName: "name=command"))
    var adapter: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A list of implementations to compare (Adapters/adapters.json: name, language, library, version, command, families); "
                + "commands run in the list's folder.", valueName: "file"))
    var adapters: String?

    @OptionGroup var selection: VectorSelection

    @Option(name: .long, help: ArgumentHelp("Write the matrix as Markdown to this file.", valueName: "file"))
    var markdown: String?

    @Option(name: .long, help: ArgumentHelp("Write the matrix as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(name: .long, help: ArgumentHelp("Write the matrix as one self-contained HTML page to this file.", valueName: "file"))
    var html: String?

    @OptionGroup var adapterOptions: AdapterOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Compare with an earlier matrix (--json output): new disagreements, fixed ones, changed outcomes; "
                + "exit status 1 when any implementation got worse.", valueName: "file"))
    var baseline: String?

    @Option(name: .long, help: ArgumentHelp("Write SARIF 2.1.0 (one run per implementation) to this file.", valueName: "file"))
    var sarif: String?

    @Flag(name: .long, help: "No progress line on stderr.")
    var quiet = false

    func run() async throws {
        let outputs = [markdown, json, html, sarif].compactMap { $0 }
        guard !outputs.isEmpty else {
            throw CLIError("say where to write the matrix: --markdown, --json, --html and/or --sarif FILE")
        }
        // The baseline is read and checked before anything runs: a bad file
        // found after every adapter ran would waste the whole run (issue 41).
        var earlier: MatrixBaseline.Earlier? = nil
        if let baseline {
            do { earlier = try MatrixBaseline.Earlier.read(baseline) } catch { throw CLIError("--baseline: \(error.description)") }
        }
        for path in outputs { try OutputFile.check(path) }
        var implementations: [(name: String, command: String, errorMap: String?)] = []
        var listed: [String: AdapterList.Entry] = [:]
        if let adapters {
            let list: AdapterList
            do { list = try AdapterList.load(path: adapters) } catch { throw CLIError(error.description) }
            for entry in list.entries {
                implementations.append((entry.name, list.shellCommand(entry), list.errorMapPath(entry)))
                listed[entry.name] = entry
            }
        }
        implementations += try adapter.map(Self.parse).map { ($0.0, $0.1, nil) }
        var names: Set<String> = ["reference"]
        for (name, _, _) in implementations where !names.insert(name).inserted {
            throw CLIError("implementation name \"\(AdapterList.shown(name))\" is used twice (\"reference\" is taken)")
        }
        if let baseline, let earlier {
            let missing = earlier.missing(from: Array(names))
            guard missing.isEmpty else {
                throw CLIError(
                    "--baseline: \(baseline) has implementations this matrix does not run ("
                        + missing.map { "\"\(AdapterList.shown($0))\"" }.joined(separator: ", ")
                        + "): nothing would be compared for them; run them under the same names, or write a new baseline")
            }
        }
        let (files, vectors, source) = try selection.load()
        guard !vectors.isEmpty else {
            Console.note("nothing was tested: \(selection.emptyReason)")
            throw ExitCode(1)
        }
        let store = try adapterOptions.trustStore(for: vectors, quiet: quiet)
        defer { store?.remove() }
        let started = ContinuousClock.now
        var columns = [
            Matrix.Column(
                name: "reference", command: nil,
                report: await Runner(subject: ReferenceSubject()).run(
                    vectors, progress: Progress(label: "reference: ", quiet: quiet).callback))
        ]
        // Adapters that could not start: noted once one did start (until
        // then the notes wait, so that "none could start" is one line).
        var launched = 0
        var unstarted: [(name: String, reason: String)] = []
        for (name, command, errorMap) in implementations {
            let progress = Progress(label: "\(name): ", quiet: quiet)
            let report: RunReport
            do {
                let subject = try await adapterOptions.launch(command, errorMap: errorMap, store: store)
                if launched == 0 {
                    for (name, reason) in unstarted { Console.note("\(name) could not be run; its column is all errors: \(reason)") }
                }
                launched += 1
                if let entry = listed[name], entry.version != subject.version {
                    Console.note("\(name) reports version \(subject.version), the list pins \(entry.version)")
                }
                report = await adapterOptions.run(subject, vectors, progress: progress, quiet: quiet)
            } catch let error as CLIError {
                if launched > 0 { Console.note("\(name) could not be run; its column is all errors: \(error.description)") }
                unstarted.append((name, error.description))
                report = await Runner(subject: UnavailableSubject(name: name, reason: error.description)).run(vectors)
            }
            let implementation = listed[name].map { Matrix.Implementation(language: $0.language, library: $0.library, version: $0.version) }
            columns.append(Matrix.Column(name: name, command: command, report: report, implementation: implementation))
        }
        // A matrix of the reference alone is no comparison: when no adapter
        // started, the run did not happen (it exited 0 before issue 41).
        if !implementations.isEmpty && launched == 0 {
            throw CLIError(
                "no adapter could start (\(implementations.count) tried), nothing was compared; "
                    + unstarted.map { "\($0.name): \($0.reason.trimmingCharacters(in: .whitespacesAndNewlines))" }.joined(separator: "; "))
        }
        // Every report names the vectors it graded (issue 61, item 6).
        columns = columns.map { column in
            var report = column.report
            report.vectorSource = source
            return Matrix.Column(name: column.name, command: column.command, report: report, implementation: column.implementation)
        }
        let matrix = Matrix(columns: columns)
        let description = Self.commandLine()
        if let markdown { try OutputFile.write(matrix.markdown(command: description), to: markdown) }
        if let json { try OutputFile.write(matrix.json(command: description), to: json) }
        if let html { try OutputFile.write(matrix.html(command: description, files: files), to: html) }
        if let sarif {
            try OutputFile.write(SARIF.log(columns.map { SARIF.Input(name: $0.name, report: $0.report) }, files: files), to: sarif)
        }
        print(TerminalText.escape(source.line))
        print(matrix.summaryMarkdown().joined(separator: "\n"))
        let seconds = Runner.seconds(ContinuousClock.now - started)
        print(
            "\n\(matrix.rows.filter(\.disagreement).count) of \(matrix.rows.count) vectors with disagreements; "
                + "\(columns.count) implementations in \(String(format: "%.1f", seconds)) s")
        if let baseline, let earlier {
            let comparison = earlier.compare(with: matrix)
            print("\n" + comparison.lines(path: baseline).joined(separator: "\n"))
            if comparison.gotWorse { throw ExitCode(1) }
        }
        throw ExitCode(columns[0].report.exitCode)
    }

    /// `NAME=COMMAND`, split at the first `=`.
    static func parse(_ text: String) throws -> (String, String) {
        guard let equals = text.firstIndex(of: "=") else {
            throw CLIError("--adapter takes NAME='COMMAND', got \"\(text.prefix(100))\"")
        }
        // Looked at before trimming: Foundation's whitespace takes in U+200B.
        if let invisible = AdapterList.invisibleCharacter(in: String(text[..<equals])) {
            throw CLIError(
                "--adapter name \"\(AdapterList.shown(String(text[..<equals])))\" holds an invisible character "
                    + "(U+\(String(invisible.value, radix: 16, uppercase: true))): a name must read as it prints")
        }
        let name = text[..<equals].trimmingCharacters(in: .whitespaces)
        let command = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !command.isEmpty else { throw CLIError("--adapter takes NAME='COMMAND' with both parts non-empty") }
        return (name, command)
    }

    /// The command line as typed, for the matrix's header.
    static func commandLine() -> String {
        CommandLine.arguments.enumerated().map { index, argument in
            let shown = index == 0 ? "trustsuite" : argument
            return shown.contains(where: { " '\"$".contains($0) }) ? "'" + shown.replacingOccurrences(of: "'", with: "'\\''") + "'" : shown
        }.joined(separator: " ")
    }
}

/// An adapter that could not start: every vector it claims nothing of is an error.
struct UnavailableSubject: Subject {
    let name: String
    let reason: String
    var gradesErrorCodes: Bool { false }
    var families: Set<Family> { Set(Family.allCases) }
    func evaluate(family: Family, input: JSONValue) async throws -> SubjectAnswer { throw CLIError(reason) }
}
