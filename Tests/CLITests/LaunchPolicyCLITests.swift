import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// `trustsuite verify attestation|assertion` with a launch policy
/// (spec/app-attest.md, Amendments (round 3)) on Apple's samples — the
/// done-when checks of the issue — and `inspect`'s informational reading
/// of the 2026 credential certificate's extensions.
@Suite(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
struct LaunchPolicyCLITests {
    typealias Sample = VerifyInputFormTests.Sample

    static func verify(_ sample: String, _ policy: [String]) throws -> CLI.Outcome {
        let loaded = try Sample.load(sample)
        return try CLI.run(loaded.arguments(file: try loaded.objectFile().file.path) + policy + ["--json"])
    }

    static let sample2026 = "validation_guide_2026_ios27", sample2024 = "validation_guide_2024_ios18"

    @Test(
        arguments: [
            (sample2026, ["--allow-category", "1"], nil),
            (sample2026, ["--allow-category", "3", "--allow-category", "4"], "validationCategoryNotAllowed"),
            (sample2026, ["--minimum-bundle-version", "1.0.1"], "bundleVersionNotAllowed"),
            (sample2026, ["--minimum-bundle-version", "1", "--allow-category", "1", "--missing-launch-data", "reject"], nil),
            (sample2024, ["--allow-category", "1", "--missing-launch-data", "reject"], "launchDataMissing"),
            (sample2024, ["--missing-launch-data", "reject"], "launchDataMissing"),
            (sample2024, ["--allow-category", "1", "--missing-launch-data", "allow"], nil),
            (sample2024, ["--allow-category", "1"], "launchDataMissing"),
        ] as [(String, [String], String?)])
    func samplesUnderAPolicy(_ sample: String, _ policy: [String], _ error: String?) throws {
        let outcome = try Self.verify(sample, policy)
        #expect(outcome.status == (error == nil ? 0 : 1), "\(outcome)")
        if let error { #expect(outcome.stdout.contains(#""error":"\#(error)""#), "\(outcome)") }
    }

    @Test func categoryNameAndVersionAreShown() throws {
        let json = try Self.verify(Self.sample2026, [])
        let object = try JSONDecoder().decode(JSONValue.self, from: Data(json.stdout.utf8))
        #expect(object["validationCategory"]?.int64Value == 1)
        #expect(object["validationCategoryName"]?.stringValue == "platform")
        #expect(object["bundleVersion"]?.stringValue == "1")
        let old = try JSONDecoder().decode(JSONValue.self, from: Data(try Self.verify(Self.sample2024, []).stdout.utf8))
        #expect(old["validationCategory"] == .null && old["bundleVersion"] == .null)
        let loaded = try Sample.load(Self.sample2026)
        let text = try CLI.run(loaded.arguments(file: try loaded.objectFile().file.path))
        #expect(text.stdout.contains("  validationCategory: 1\n  validationCategoryName: platform\n  bundleVersion: 1"), "\(text)")
    }

    /// A category that is not a number, a version that is not dotted decimals, a rule other than the two: usage errors.
    @Test(arguments: [
        ["--allow-category", "x"], ["--allow-category", "-1"], ["--allow-category", "4294967296"], ["--allow-category", "1.5"],
        ["--minimum-bundle-version", "1.x"], ["--minimum-bundle-version", ""], ["--minimum-bundle-version", "1..2"],
        ["--missing-launch-data", "maybe"], ["--missing-launch-data", "Reject"],
    ])
    func badValuesAreOneLineUsageErrors(_ policy: [String]) throws {
        let outcome = try Self.verify(Self.sample2026, policy)
        #expect(outcome.status == 2 && !outcome.signaled, "\(outcome)")
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.hasPrefix("trustsuite: "), "\(outcome)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test func inspectReadsTheAppleExtensions() throws {
        let loaded = try Sample.load(Self.sample2026)
        let outcome = try CLI.run(["inspect", try loaded.objectFile().file.path])
        #expect(outcome.status == 0, "\(outcome)")
        for line in [
            "extension 1.2.840.113635.100.8.6: 75 bytes, Apple extension 8.6 (informational, undocumented)",
            "okd: true, oa: true, osgn: true, odel: true, ock: true",
            "extension 1.2.840.113635.100.8.7: 210 bytes, Apple device OS information (informational, undocumented)",
            "[1403] \"24A325b\"", "launch data: validation category 1 (platform, name informational), bundle version \"1\"",
        ] {
            #expect(outcome.stdout.contains(line), "missing: \(line)")
        }
    }
}
