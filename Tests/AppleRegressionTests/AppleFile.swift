import Foundation
import Security
import Synchronization
import Testing

/// One of Apple's regression-test files, ported (issue 58, docs/apple-regressions.md).
///
/// Each assertion of Apple's file is one call here, with the line it stands
/// at in Apple's source (apple-oss-distributions/Security, the commit named
/// in docs/apple-regressions.md). Apple's expectation is never changed: an
/// assertion the model cannot meet yet names the rule that explains it
/// (`known:`), and is a known issue, so the count stays visible and the
/// suite green; one that passes while marked known fails, so the mark goes
/// when the model meets it. `finish()` checks that ported plus skipped
/// assertions equal Apple's `plan_tests` for the file.
final class AppleFile: Sendable {
    struct Counts: Sendable, Equatable {
        var passed = 0
        var known = 0
        var failed = 0
        var skipped = 0
        var total: Int { passed + known + failed + skipped }
    }

    let name: String
    let plan: Int
    private let counts = Mutex(Counts())

    /// `name` is Apple's file name (`si-05-add.c`), `plan` its `plan_tests`
    /// for the iOS branch and the device state the port sets up.
    init(_ name: String, plan: Int) {
        self.name = name
        self.plan = plan
    }

    var current: Counts { counts.withLock { $0 } }

    /// Apple's `ok(condition)`, and any assertion that is a truth value.
    func ok(
        _ condition: Bool, line: Int, _ what: String, known rule: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        record(condition, line: line, what, detail: "", known: rule, sourceLocation: sourceLocation)
    }

    /// Apple's `is(actual, expected)` and `is_status(actual, expected)`.
    func `is`<T: Equatable>(
        _ actual: T, _ expected: T, line: Int, _ what: String, known rule: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        record(
            actual == expected, line: line, what, detail: " (got \(actual), Apple expects \(expected))", known: rule,
            sourceLocation: sourceLocation)
    }

    /// Apple's `isnt(actual, unexpected)`.
    func isnt<T: Equatable>(
        _ actual: T, _ unexpected: T, line: Int, _ what: String, known rule: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        record(
            actual != unexpected, line: line, what, detail: " (got \(actual), which Apple refuses)", known: rule,
            sourceLocation: sourceLocation)
    }

    /// Apple's `ok_status(status)`: the call succeeded (`errSecSuccess`).
    func okStatus(
        _ status: OSStatus, line: Int, _ what: String, known rule: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        `is`(status, errSecSuccess, line: line, what, known: rule, sourceLocation: sourceLocation)
    }

    /// Apple's `skip(reason, count, condition)` and assertions that need
    /// state this platform cannot set: `count` assertions not run, with why.
    func skip(_ count: Int, line: Int, _ reason: String) {
        counts.withLock { $0.skipped += max(0, count) }
    }

    /// Ends the file: every assertion of Apple's plan was ported or skipped.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        let counts = current
        #expect(
            counts.total == plan,
            "\(name): \(counts.total) assertions ported or skipped, Apple's plan_tests is \(plan)",
            sourceLocation: sourceLocation)
        AppleRegressionLedger.add(name, counts, plan: plan)
    }

    private func record(
        _ passed: Bool, line: Int, _ what: String, detail: String, known rule: String?, sourceLocation: SourceLocation
    ) {
        let place = "\(name):\(line)"
        switch (passed, rule) {
        case (true, nil):
            counts.withLock { $0.passed += 1 }
        case (false, nil):
            counts.withLock { $0.failed += 1 }
            Issue.record("\(place): \(what)\(detail)", sourceLocation: sourceLocation)
        case (false, let rule?):
            counts.withLock { $0.known += 1 }
            withKnownIssue("\(place): \(what): rule \(rule)") {
                Issue.record("\(place): \(what)\(detail)", sourceLocation: sourceLocation)
            }
        case (true, let rule?):
            counts.withLock { $0.failed += 1 }
            Issue.record(
                "\(place): \(what) now passes: remove its known-issue mark (rule \(rule))", sourceLocation: sourceLocation)
        }
    }
}

/// The figure the run prints when the test process ends:
/// `apple-regressions: P passed, K known issues, S skipped of N`.
enum AppleRegressionLedger {
    private static let files = Mutex<[String: (AppleFile.Counts, Int)]>([:])
    private static let registered = Mutex(false)

    static func add(_ name: String, _ counts: AppleFile.Counts, plan: Int) {
        files.withLock { $0[name] = (counts, plan) }
        let first = registered.withLock { done in
            defer { done = true }
            return !done
        }
        if first { atexit { AppleRegressionLedger.printTotals() } }
    }

    static var totals: (counts: AppleFile.Counts, plan: Int, files: Int) {
        files.withLock { files in
            var sum = AppleFile.Counts()
            var plan = 0
            for (counts, filePlan) in files.values {
                sum.passed += counts.passed
                sum.known += counts.known
                sum.failed += counts.failed
                sum.skipped += counts.skipped
                plan += filePlan
            }
            return (sum, plan, files.count)
        }
    }

    static func printTotals() {
        let (sum, plan, count) = totals
        let failed = sum.failed > 0 ? ", \(sum.failed) failed" : ""
        print(
            "apple-regressions: \(sum.passed) passed, \(sum.known) known issues, \(sum.skipped) skipped of \(plan)\(failed) (\(count) of Apple's files)"
        )
    }
}
