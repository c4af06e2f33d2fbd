/// Why a keychain or LocalAuthentication answer is what it is: the rule of
/// the rule book that decided it and one line of reason, made together at
/// the line that decides and carried whole from there — through the
/// model's outcomes, its call log and the reference subject's answer — to
/// the scorecard, where a case that did not pass shows it (issue 56).
public struct Ruling: Sendable, Hashable, CustomStringConvertible {
    /// The rule of the book (or the tag) that decided.
    public let authority: Authority
    public private(set) var reason: String

    public init(_ rule: SecRule, _ reason: String) {
        authority = .rule(rule)
        self.reason = reason
    }

    /// An answer no rule of the book decides (a dispatch, the API layer, a device event, …).
    public init(tag: RuleTag, _ reason: String) {
        authority = .tag(tag)
        self.reason = reason
    }

    /// The same rule or tag with another reason (a call that passes on a
    /// refusal it met, saying where).
    public func restated(_ reason: String) -> Ruling {
        var ruling = self
        ruling.reason = reason
        return ruling
    }

    /// "AC6: biometryCurrentSet can no longer be satisfied (…)".
    public var explanation: String { "\(authority): \(reason)" }
    public var description: String { explanation }
}

/// A value that carries a ``Ruling``: its rule, reason and explanation are the ruling's.
public protocol Ruled {
    var ruling: Ruling { get }
}

extension Ruled {
    /// The rule (or tag) that decided.
    public var rule: Authority { ruling.authority }
    public var reason: String { ruling.reason }
    public var explanation: String { ruling.explanation }
}
