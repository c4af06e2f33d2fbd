/// Why a keychain or LocalAuthentication answer is what it is: the rule of
/// the rule book that decided it and one line of reason, made together at
/// the line that decides and carried whole from there — through the
/// model's outcomes, its call log and the reference subject's answer — to
/// the scorecard, where a case that did not pass shows it (issue 56).
public struct Ruling: Sendable, Hashable, CustomStringConvertible {
    public let rule: SecRule
    public let reason: String

    public init(_ rule: SecRule, _ reason: String) {
        self.rule = rule
        self.reason = reason
    }

    /// "AC6: biometryCurrentSet can no longer be satisfied (…)".
    public var explanation: String { "\(rule): \(reason)" }
    public var description: String { explanation }
}

/// A value that carries a ``Ruling``: its rule, reason and explanation are the ruling's.
public protocol Ruled {
    var ruling: Ruling { get }
}

extension Ruled {
    public var rule: SecRule { ruling.rule }
    public var reason: String { ruling.reason }
    public var explanation: String { ruling.explanation }
}
