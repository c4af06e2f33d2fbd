import Foundation
import FuzzTargets
import Testing
import TestSupport

/// Replays every committed fuzz finding (`Fuzz/FailCases/<harness>/`) and
/// every seed (`Fuzz/Corpus/<harness>/`) through the harness's oracle, for
/// every harness of the registry.
@Suite struct ReplayTests {
    struct Input: Sendable, CustomStringConvertible {
        let harness: Harness
        let kind: String
        let url: URL
        var description: String { "\(kind)/\(harness.rawValue)/\(url.lastPathComponent)" }
    }

    static func inputs(_ kind: String) -> [Input] {
        Harness.allCases.flatMap { harness in
            Locations.files(in: Locations.fuzz.appendingPathComponent(kind).appendingPathComponent(harness.rawValue))
                .map { Input(harness: harness, kind: kind, url: $0) }
        }
    }

    @Test(arguments: Harness.allCases)
    func harnessIsComplete(_ harness: Harness) {
        let seeds = Self.inputs("Corpus").filter { $0.harness == harness }
        #expect(seeds.count >= 20, "Fuzz/Corpus/\(harness.rawValue) should hold a seed corpus")
        let fuzz = Locations.fuzz
        #expect(
            FileManager.default.fileExists(
                atPath: fuzz.appendingPathComponent("Sources/\(harness.rawValue)/\(harness.rawValue).swift").path))
        #expect(FileManager.default.fileExists(atPath: fuzz.appendingPathComponent("Dictionaries/\(harness.dictionary)").path))
        // The options file (OSS-Fuzz's form) names the registry's dictionary; run.sh and campaign.sh read it.
        let options = (try? String(contentsOf: fuzz.appendingPathComponent("Options/\(harness.rawValue).options"), encoding: .utf8)) ?? ""
        #expect(
            options.split(separator: "\n").contains("dict = \(harness.dictionary)"),
            "Fuzz/Options/\(harness.rawValue).options should say dict = \(harness.dictionary)")
        // Leak detection stays on everywhere (the async oracles free what
        // they allocate before the entry returns: InlineExecutor).
        #expect(!options.contains("detect_leaks"), "Fuzz/Options/\(harness.rawValue).options turns leak detection off")
    }

    @Test func harnessFoldersMatchTheRegistry() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Locations.fuzz.appendingPathComponent("Sources").path)
            .filter { $0.hasPrefix("Fuzz") }
        #expect(Set(folders) == Set(Harness.allCases.map(\.rawValue)))
    }

    /// Inputs of the harnesses whose oracle this build has.
    static func runnable(_ kind: String) -> [Input] { inputs(kind).filter { $0.harness.unavailableReason == nil } }

    /// A harness left out of this build (FuzzCBORDifferential without
    /// libcbor) shows as a skipped test that says what to install.
    @Test(
        .disabled(
            if: Harness.allCases.contains { $0.unavailableReason != nil },
            Comment(rawValue: Harness.allCases.compactMap(\.unavailableReason).joined(separator: "; "))))
    func harnessesLeftOutOfThisBuild() {
        #expect(Harness.allCases.allSatisfy { $0.unavailableReason == nil })
    }

    @Test(arguments: runnable("FailCases") + runnable("Corpus"))
    func replay(_ input: Input) async throws {
        let bytes = [UInt8](try Data(contentsOf: input.url))
        for problem in await input.harness.check(bytes) {
            Issue.record("\(input): \(problem)")
        }
    }
}
