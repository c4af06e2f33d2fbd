import ConformanceReports
import TrustSuiteSupport
import VectorContract

/// How bad a finding is (docs/vectors.md, "App Attest vectors any verifier
/// can run (round 3)", Severity), in the order every report lists findings:
///
/// - `critical`: the implementation crashed, hung or answered nothing on a
///   `network` input — anyone can take the server down;
/// - `high`: a `network` vector accepted;
/// - `medium`: a valid vector rejected (it locks real users out);
/// - `low`: a `signed` vector accepted (it needs Apple's CA or a device key
///   to sign what they never sign);
/// - `wrongReason`: refused, with another code than the vector's;
/// - `other`: a wrong output, or an error on an input that is not `network`.
///
/// An accepted invalid vector without an `attack` (the model families)
/// counts as `high`: nothing says a signer stands in the way.
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case critical, high, medium, low, wrongReason, other

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }

    /// SARIF `rank` (0–100, higher is worse).
    public var rank: Int {
        switch self {
        case .critical: 100
        case .high: 80
        case .medium: 60
        case .low: 40
        case .wrongReason: 20
        case .other: 10
        }
    }
}

extension CaseResult {
    /// The finding's severity; nil when the case is not a finding.
    public var severity: Severity? {
        let attack = vector.effectiveAttack
        switch grade {
        case .pass, .unsupported: return nil
        case .error: return attack == .network ? .critical : .other
        case .wrongReason: return .wrongReason
        case .fail:
            if acceptedInvalid { return attack == .signed ? .low : .high }
            return rejectedValid ? .medium : .other
        }
    }

    /// A crash, hang or silence on a `network` input.
    public var critical: Bool { severity == .critical }
}

extension Array where Element == CaseResult {
    /// The findings among these cases, worst first, each severity in run order.
    public func bySeverity() -> [CaseResult] {
        let findings = filter(\.grade.isFinding)
        return Severity.allCases.flatMap { severity in findings.filter { $0.severity == severity } }
    }

    /// How many findings have each severity (every severity named, zeros included).
    public func severityCounts() -> [Severity: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Severity.allCases.map { ($0, 0) })
        for result in self { if let severity = result.severity { counts[severity, default: 0] += 1 } }
        return counts
    }
}
