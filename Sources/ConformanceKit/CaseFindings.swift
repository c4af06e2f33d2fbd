import ConformanceReports
import Foundation
import TrustSuiteSupport
import VectorContract

extension CaseResult {
    /// The case as a neutral ``Finding``: what every report writer takes.
    /// `rule` and `line` are SARIF's (the vector group's rule, the line of
    /// the vector's id); the JUnit report needs neither, so a finding
    /// without a rule carries no location and no properties either.
    public func finding(rule: Finding.Rule? = nil, line: Int? = nil) -> Finding {
        let outcome: Finding.Outcome
        var kind: String? = nil
        switch grade {
        case .pass:
            outcome = .pass
        case .fail:
            outcome = .failure
            kind = acceptedInvalid ? "acceptedInvalid" : rejectedValid ? "rejectedValid" : "wrongOutput"
        case .wrongReason:
            outcome = .failure
            kind = "wrongReason"
        case .error:
            outcome = .error
            kind = critical ? "critical" : nil
        case .unsupported:
            outcome = .skipped
        }
        let prefix = severity.map { "\($0.rawValue): " } ?? ""
        // A skipped case shows the subject's own reason when it gave one.
        let shown = grade == .unsupported ? (answer?.error ?? message) : grade == .pass ? message : prefix + message
        let described =
            acceptedInvalid
            ? "accepted an invalid vector"
            : rejectedValid
                ? "rejected a valid vector"
                : grade == .wrongReason ? "refused for a wrong reason" : grade == .error ? "error" : "wrong output"
        let level = severity == .critical || severity == .high ? "error" : "warning"
        // The subject's explanation, where the case did not pass: JUnit's
        // failure text and the end of SARIF's message.
        let why = grade == .pass ? nil : explanation
        return Finding(
            id: vector.id, title: "\(vector.id) [tcId \(vector.tcId)]", group: vector.family.rawValue, outcome: outcome,
            kind: kind, message: shown, detail: why, stderr: stderr, seconds: seconds, file: vector.file,
            level: Finding.Level(level: level, rank: (severity ?? .other).rank), rule: rule,
            location: rule == nil ? nil : SARIFLog.location(vector.file, line: line),
            summary: "\(vector.id): \(described) — \(message)" + (why.map { " (why: \($0))" } ?? ""),
            fingerprint: "trustsuiteVector/v1", properties: rule == nil ? [:] : sarifProperties)
    }

    /// What SARIF's result carries beside the message: only a SARIF finding
    /// (one with a rule) pays for showing the input.
    var sarifProperties: [String: JSONValue] {
        var properties: [String: JSONValue] = [
            "tcId": .int(Int64(vector.tcId)), "grade": .string(grade.rawValue), "expected": .string(vector.result.rawValue),
            "input": CaseInput.shown(vector.input), "severity": .string((severity ?? .other).rawValue),
        ]
        if let code = vector.error { properties["expectedCode"] = .string(code) }
        if let code = receivedCode { properties["receivedCode"] = .string(code) }
        if let attack = vector.attack { properties["attack"] = .string(attack.rawValue) }
        return properties
    }
}
