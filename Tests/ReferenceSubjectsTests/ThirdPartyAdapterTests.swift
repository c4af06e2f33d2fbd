import ConformanceKit
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// The five real adapters of Adapters/ (installed by .ci/run into a virtual
/// environment) run against every vector: each run completes with a
/// well-formed report, and no adapter process is left behind. A third
/// party's wrong answers are findings, not test failures.
@Suite(.enabled(if: Locations.adapterPython != nil, Comment(rawValue: Locations.adapterPythonMissingReason)))
struct ThirdPartyAdapterTests {
    /// Adapter folder → the families it claims.
    static let adapters: [String: Set<Family>] = [
        "pyattest": [.appAttestAttestation, .appAttestAssertion],
        "cbor2": [.cbor], "cbor": [.cbor], "fido2": [.cbor], "cbor-diag": [.cbor],
    ]

    static let vectors: [Vector] = Family.allCases.flatMap { FixtureVectors.cases($0).map(\.vector) }

    @Test(arguments: adapters.keys.sorted())
    func runsToCompletion(_ folder: String) async throws {
        let python = try #require(Locations.adapterPython)
        let script = Locations.packageRoot.appendingPathComponent("Adapters/\(folder)/adapter.py").path
        let marker = "trustsuite-adapter-test-\(UUID().uuidString)"
        // The marker (an argument the adapter ignores) finds its processes.
        let subject = try await AdapterSubject.launch(command: "exec '\(python)' '\(script)' \(marker)", timeout: .seconds(10))
        #expect(subject.adapterName == folder)
        #expect(subject.families == Self.adapters[folder])
        let report = await Runner(subject: subject).run(Self.vectors)
        await subject.stop()
        #expect(Processes.mentioning(marker) == [])

        #expect(report.cases.count == Self.vectors.count)
        #expect(report.cases.map(\.vector.id) == Self.vectors.map(\.id))
        #expect(report.graded > 0, "\(folder) graded nothing")
        // Every vector of a family it does not claim is unsupported, and a
        // claimed family gets verdicts.
        for result in report.cases where !subject.families.contains(result.vector.family) {
            #expect(result.grade == .unsupported)
        }
        for family in subject.families.sorted() {
            let verdicts = report.count(.pass, family: family) + report.count(.fail, family: family)
            #expect(verdicts > 0, "\(folder) claims \(family.rawValue) yet answered no vector of it with a verdict")
        }
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Reports.json(report).utf8))
        #expect(json["summary"]?["total"]?.int64Value == Int64(Self.vectors.count))
        #expect(json["cases"]?.arrayValue?.count == Self.vectors.count)
        let xml = Reports.junit(report)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == Self.vectors.count)
        #expect(Reports.scorecard(report).contains("accInv"))
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
