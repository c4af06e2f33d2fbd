import AdapterHost
import ConformanceKit
import VectorContract
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// Every implementation of Adapters/adapters.json (installed and built by
/// .ci/run: the Python virtual environment, Debian's packages, and
/// Adapters/build.sh's binaries in .build-adapters/) runs against every
/// vector. Each run completes with a well-formed report and leaves no
/// process behind, the adapter reports the version and families the list
/// pins, and the vectors it fails are exactly those of its
/// `Adapters/NAME/expected.json`: a library that behaves differently (a new
/// failure, or a listed one that now passes) turns the test red and names
/// the vector.
@Suite(.enabled(if: ThirdPartyAdapters.installed, Comment(rawValue: ThirdPartyAdapters.notInstalledReason)))
struct ThirdPartyAdapterTests {
    static let vectors: [Vector] = Family.allCases.flatMap { FixtureVectors.cases($0).map(\.vector) }

    @Test func listCoversTheAdapterFolders() throws {
        let list = try ThirdPartyAdapters.list.get()
        #expect(list.entries.count >= 15)
        #expect(Set(list.entries.map(\.language)).count >= 6)
        let adapters = Locations.packageRoot.appendingPathComponent("Adapters")
        let folders = Locations.files(in: adapters).filter { url in
            ["README.md", "expected.json"].allSatisfy { FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path) }
        }.map(\.lastPathComponent)
        #expect(Set(folders) == Set(list.entries.map(\.name)), "every folder with a README and expected.json is listed, and only those")
    }

    @Test(arguments: ThirdPartyAdapters.entries.map(\.name))
    func failsExactlyAsExpected(_ name: String) async throws {
        let list = try ThirdPartyAdapters.list.get()
        let entry = try #require(list.entries.first { $0.name == name })
        let marker = "trustsuite-adapter-test-\(UUID().uuidString)"
        // The marker (an argument the adapter ignores) finds its processes.
        // Its error map, found as `trustsuite matrix --adapters` finds it.
        let map = try list.errorMapPath(entry).map { path throws(VectorLoadError) in try ErrorMap.load(path) }
        // The App Attest adapters run with the hostile trust store (`--hostile-trust-store`):
        // a library that consults the host's store is caught by the anchors-removed vectors.
        let store = entry.families.contains { $0.hasPrefix("app-attest") } ? try HostileTrustStore.make(for: Self.vectors) : nil
        defer { store?.remove() }
        let subject = try await AdapterSubject.launch(
            command: list.shellCommand(entry) + " " + marker, timeout: .seconds(10),
            errorMap: map, environment: store?.environment ?? [:])
        #expect(subject.adapterName == name)
        #expect(subject.version == entry.version, "\(name) is not the pinned release")
        #expect(subject.families.map(\.rawValue).sorted() == entry.families.sorted())
        let report = await Runner(subject: subject).run(Self.vectors)
        await subject.stop()
        #expect(Processes.mentioning(marker) == [])

        #expect(report.cases.map(\.vector.id) == Self.vectors.map(\.id))
        #expect(report.graded > 0, "\(name) graded nothing")
        for result in report.cases where !subject.families.contains(result.vector.family) {
            #expect(result.grade == .unsupported)
        }
        for family in subject.families.sorted() {
            let verdicts = report.count(.pass, family: family) + report.count(.fail, family: family)
            #expect(verdicts > 0, "\(name) claims \(family.rawValue) yet answered no vector of it with a verdict")
        }
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Reports.json(report).utf8))
        #expect(json["summary"]?["total"]?.int64Value == Int64(Self.vectors.count))
        #expect(json["cases"]?.arrayValue?.count == Self.vectors.count)
        #expect(Reports.junit(report).components(separatedBy: "<testcase ").count - 1 == Self.vectors.count)
        #expect(Reports.scorecard(report).contains("accInv"))

        // Graded as `trustsuite run --adapter … --expected Adapters/NAME/expected.json` grades it.
        let verdict = try ThirdPartyAdapters.expected(name).check(report)
        let unlisted = verdict.unlisted.map { "\($0.vector.id): \($0.grade.rawValue): \($0.message.prefix(200))" }
        #expect(unlisted.isEmpty, "\(name) has findings its expected.json does not list:\n\(unlisted.joined(separator: "\n"))")
        let stale = verdict.stale.map(\.entry.pattern)
        #expect(stale.isEmpty, "\(name) no longer fails these expected.json entries:\n\(stale.joined(separator: "\n"))")
        #expect(verdict.exitCode(graded: report.graded) == 0)
    }
}

/// Adapters/adapters.json and whether .ci/run installed what it lists.
enum ThirdPartyAdapters {
    static let root = Locations.packageRoot.appendingPathComponent("Adapters")
    static let list: Result<AdapterList, VectorLoadError> = {
        do throws(VectorLoadError) {
            return .success(try AdapterList.load(path: root.appendingPathComponent("adapters.json").path))
        } catch {
            return .failure(error)
        }
    }()
    static var entries: [AdapterList.Entry] { (try? list.get().entries) ?? [] }

    /// What .ci/run makes before the tests: the adapters' virtual
    /// environment and the compiled adapters.
    static var installed: Bool {
        let top = Locations.packageRoot
        return FileManager.default.isExecutableFile(atPath: top.appendingPathComponent(".venv-adapters/bin/python").path)
            && FileManager.default.fileExists(atPath: top.appendingPathComponent(".build-adapters/bin").path)
    }

    static let notInstalledReason =
        "the third-party adapters are not installed: run .ci/run (Debian packages, .venv-adapters, Adapters/build.sh)"

    static func expected(_ name: String) throws -> ExpectedFailures {
        try ExpectedFailures.load(root.appendingPathComponent("\(name)/expected.json").path)
    }
}

/// docs/findings.md: every reproduction command (`Adapters/ask.py NAME …
/// # verdict`) gives the verdict it states, and every vector id named under
/// an adapter's heading is one its expected.json lists, so the document
/// cannot drift from what the libraries do.
@Suite(.enabled(if: ThirdPartyAdapters.installed, Comment(rawValue: ThirdPartyAdapters.notInstalledReason)))
struct FindingsDocumentTests {
    struct Command: Sendable, CustomStringConvertible {
        let arguments: [String]
        let verdict: String
        var description: String { (["Adapters/ask.py"] + arguments).joined(separator: " ") + "  # " + verdict }
    }

    static let text: String =
        (try? String(contentsOf: Locations.packageRoot.appendingPathComponent("docs/findings.md"), encoding: .utf8)) ?? ""

    /// The indented `Adapters/ask.py ARGS    # verdict` lines.
    static let commands: [Command] = text.split(separator: "\n").compactMap { line in
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("Adapters/ask.py "), let hash = trimmed.range(of: "#", options: .backwards) else { return nil }
        let arguments = trimmed[..<hash.lowerBound].split(separator: " ").dropFirst().map(String.init)
        return Command(arguments: arguments, verdict: trimmed[hash.upperBound...].trimmingCharacters(in: .whitespaces))
    }

    @Test func documentHasFindings() {
        #expect(Self.commands.count >= 30)
        #expect(
            Set(Self.commands.compactMap(\.arguments.first)) == Set(ThirdPartyAdapters.entries.map(\.name)),
            "every adapter has a reproduced finding")
    }

    @Test(arguments: commands)
    func reproduces(_ command: Command) throws {
        let (_, data) = try Processes.output(["python3", "Adapters/ask.py"] + command.arguments, in: Locations.packageRoot)
        let reply = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(reply["result"]?.stringValue == command.verdict, "\(command): \(String(decoding: data, as: UTF8.self))")
    }

    /// `a::{b,c}::d` → `a::b::d`, `a::c::d`.
    static func expand(_ pattern: String) -> [String] {
        guard let open = pattern.firstIndex(of: "{"), let close = pattern[open...].firstIndex(of: "}") else { return [pattern] }
        let head = String(pattern[..<open]), tail = String(pattern[pattern.index(after: close)...])
        return pattern[pattern.index(after: open)..<close].split(separator: ",").flatMap { expand(head + $0 + tail) }
    }

    @Test func vectorIdsAreExpectedFailures() throws {
        var adapter: String?
        var checked = 0
        for line in Self.text.split(separator: "\n") {
            if line.hasPrefix("### `"), let name = line.dropFirst(5).split(separator: "`").first {
                adapter = String(name)
            }
            let pieces = line.split(separator: "`", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() where index % 2 == 1 && piece.contains("::") && !piece.contains(" ") {
                let name = try #require(adapter, "vector id \(piece) before any adapter heading")
                let expected = try ThirdPartyAdapters.expected(name)
                for id in Self.expand(String(piece)) {
                    // The document may name a glob of ids (`…::*`): some entry must fall under it.
                    #expect(expected.entries.contains { fnmatch(id, $0.pattern, 0) == 0 }, "\(name): \(id) is not in its expected.json")
                    checked += 1
                }
            }
        }
        #expect(checked >= 100)
    }
}

/// The two example adapters of docs/third-party.md's "Writing an adapter" run as
/// written against every cbor vector.
struct ReadmeAdapterExampleTests {
    /// The fenced code block after `<!-- example-adapter: NAME -->`.
    static func example(_ name: String) throws -> String {
        let readme = try String(contentsOf: Locations.packageRoot.appendingPathComponent("docs/third-party.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "<!-- example-adapter: \(name) -->"))
        let rest = readme[marker.upperBound...]
        let open = try #require(rest.range(of: "```"))
        let bodyStart = try #require(rest[open.upperBound...].firstIndex(of: "\n"))
        let close = try #require(rest[bodyStart...].range(of: "\n```"))
        return String(rest[rest.index(after: bodyStart)..<close.lowerBound]) + "\n"
    }

    static let nodeAvailable: Bool = ["/usr/bin/node", "/usr/local/bin/node"].contains { FileManager.default.isExecutableFile(atPath: $0) }

    static func run(_ interpreter: String, _ source: String, suffix: String) async throws -> RunReport {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("readme-adapter-\(UUID().uuidString).\(suffix)")
        try Data(source.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let subject = try await AdapterSubject.launch(command: "exec \(interpreter) '\(url.path)'")
        let report = await Runner(subject: subject).run(FixtureVectors.cases(.cbor).map(\.vector))
        await subject.stop()
        #expect(Processes.mentioning(url.lastPathComponent) == [])
        return report
    }

    /// Vectors of a group that turns tag validity on (both examples pass tags through).
    static func checksTags(_ vector: Vector) -> Bool { vector.input["tagValidity"] == .bool(true) }

    @Test(.enabled(if: Locations.adapterPython != nil, Comment(rawValue: Locations.adapterPythonMissingReason)))
    func pythonExample() async throws {
        let python = try #require(Locations.adapterPython)
        let report = try await Self.run("'\(python)'", try Self.example("python"), suffix: "py")
        #expect(report.count(.error) == 0, "\(report.cases.first { $0.grade == .error }?.message ?? "")")
        let wellFormed = report.cases.filter { $0.vector.part == "wellFormed" && !Self.checksTags($0.vector) }
        #expect(wellFormed.allSatisfy { $0.grade != .unsupported })
        #expect(report.graded == wellFormed.count)
    }

    @Test(.enabled(if: nodeAvailable, "node is not installed"))
    func nodeExample() async throws {
        let report = try await Self.run("node", try Self.example("node"), suffix: "js")
        #expect(report.count(.error) == 0, "\(report.cases.first { $0.grade == .error }?.message ?? "")")
        let wellFormed = report.cases.filter { $0.vector.part == "wellFormed" && !Self.checksTags($0.vector) }
        #expect(report.graded == wellFormed.count)
        // A checker this small gets the structure right; what it misses is
        // duplicate keys and the depth policy (10 of 411 today).
        let failed = wellFormed.filter { $0.grade == .fail }
        #expect(failed.count < wellFormed.count / 10, "\(failed.map(\.vector.id))")
    }
}
