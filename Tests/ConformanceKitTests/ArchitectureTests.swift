import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// docs/architecture.md's module map is the manifest's: the arrows between
/// the package's own targets, as `swift package dump-package` reports them.
/// And the two test doubles a server team links stay free of the runner, the
/// subjects and the generator (issue 24).
@Suite struct ArchitectureTests {
    /// Each non-test target of the manifest with its dependencies on the package's own targets
    /// (test support: TestSupport, and StrictCBORFrozen, the oracle copy of StrictCBOR).
    static func manifestMap() throws -> [String: [String]] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A scratch path of its own: the package's .build may be locked by the running `swift test`.
        // With the optional libcbor oracle on (TRUSTSUITE_LIBCBOR=1), so the map holds its arrow too.
        let (status, data) = try Processes.output([
            "TRUSTSUITE_LIBCBOR=1", "swift", "package", "--package-path", Checkout.root.path,
            "--scratch-path", scratch.path, "dump-package",
        ])
        try #require(status == 0, "swift package dump-package failed")
        let dump = try JSONDecoder().decode(JSONValue.self, from: data)
        let targets = dump["targets"]?.arrayValue ?? []
        let ours = Set(targets.compactMap { $0["name"]?.stringValue })
        var map: [String: [String]] = [:]
        for target in targets where target["type"]?.stringValue != "test" {
            guard let name = target["name"]?.stringValue, name != "TestSupport", name != "StrictCBORFrozen" else { continue }
            map[name] = (target["dependencies"]?.arrayValue ?? []).compactMap { dependency in
                let named = dependency["byName"]?.arrayValue?.first ?? dependency["target"]?.arrayValue?.first
                return named?.stringValue.flatMap { ours.contains($0) ? $0 : nil }
            }
        }
        return map
    }

    /// The block after `<!-- module-map … -->` in docs/architecture.md: `NAME → A, B` per line.
    static func documentedMap() throws -> [String: [String]] {
        let text = try String(contentsOf: Checkout.path("docs", "architecture.md"), encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- module-map"))
        let rest = text[marker.upperBound...]
        let open = try #require(rest.range(of: "```\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        var map: [String: [String]] = [:]
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
            let parts = line.components(separatedBy: "→")
            try #require(parts.count == 2, "not NAME → DEPENDENCIES: \(line)")
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let list = parts[1].trimmingCharacters(in: .whitespaces)
            map[name] = list == "(nothing of ours)" ? [] : list.components(separatedBy: ", ")
        }
        return map
    }

    @Test func documentedModuleMapIsTheManifests() throws {
        let manifest = try Self.manifestMap()
        let documented = try Self.documentedMap()
        #expect(Set(documented.keys) == Set(manifest.keys))
        for (name, dependencies) in manifest.sorted(by: { $0.key < $1.key }) {
            #expect(
                Set(documented[name] ?? []) == Set(dependencies), "\(name): documented \(documented[name] ?? []), manifest \(dependencies)")
        }
    }

    /// Everything `name` reaches through the package's own targets.
    static func reach(_ name: String, in map: [String: [String]]) -> Set<String> {
        var seen = Set<String>()
        var work = map[name] ?? []
        while let next = work.popLast() {
            if seen.insert(next).inserted { work += map[next] ?? [] }
        }
        return seen
    }

    @Test(arguments: ["DeviceCheckService", "AppAttestDevice"])
    func testDoublesDependOnNothingOfTheRunner(_ name: String) throws {
        let reached = Self.reach(name, in: try Self.manifestMap())
        #expect(
            reached.isDisjoint(with: ["ConformanceKit", "AdapterHost", "VectorContract", "ReferenceSubjects", "AppAttestGenerator"]),
            "\(name) reaches \(reached.sorted())")
    }

    /// The probe borrows nothing (issue 42): it reaches the contract (notes)
    /// and the reports, never the runner, the adapter host or the generator.
    @Test func probeReachesNeitherTheRunnerNorTheGenerator() throws {
        let reached = Self.reach("AppAttestProbe", in: try Self.manifestMap())
        #expect(reached.isSuperset(of: ["ConformanceReports", "VectorContract"]), "\(reached.sorted())")
        #expect(
            reached.isDisjoint(with: ["ConformanceKit", "AdapterHost", "AppAttestGenerator", "ReferenceSubjects", "CProcessControl"]),
            "AppAttestProbe reaches \(reached.sorted())")
    }

    /// One job per room: the contract and the reports reach no process
    /// handling, the runner reaches no adapter process, and DeviceCheck's
    /// model is not App Attest's.
    @Test(arguments: [
        ("VectorContract", ["AdapterHost", "CProcessControl", "ConformanceKit", "ConformanceReports"]),
        ("ConformanceReports", ["AdapterHost", "CProcessControl", "ConformanceKit", "VectorContract"]),
        ("ConformanceKit", ["AdapterHost", "CProcessControl"]),
        ("DeviceCheckModel", ["AppAttest", "StrictCBOR"]),
        ("DeviceCheckService", ["AppAttest"]),
    ])
    func roomsKeepToTheirJob(_ name: String, forbidden: [String]) throws {
        let reached = Self.reach(name, in: try Self.manifestMap())
        #expect(reached.isDisjoint(with: forbidden), "\(name) reaches \(reached.sorted())")
    }

    /// No source file of the contract or the reports spawns, signals or
    /// waits for a process: that is the adapter host's job alone.
    @Test(arguments: ["VectorContract", "ConformanceReports", "ConformanceKit"])
    func noProcessHandlingOutsideTheHost(_ module: String) throws {
        let folder = Checkout.path("Sources", module)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        let markers = [
            "import Glibc", "import Darwin", "import CProcessControl", "posix_spawn", "waitpid", "kill(", "Process()", "fork(",
        ]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for marker in markers { #expect(!text.contains(marker), "\(module)/\(file) holds \(marker)") }
        }
    }

    @Test func supportDependsOnNothingOfOurs() throws {
        #expect(try Self.manifestMap()["TrustSuiteSupport"] == [])
    }
}
