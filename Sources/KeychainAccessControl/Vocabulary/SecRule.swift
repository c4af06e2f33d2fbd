/// Every rule id of the SecItem rule book, and nothing else (the tags for
/// answers no rule decides are ``RuleTag``) (docs/models/secitem.md; the
/// rule book's §2–§5, as amended in §9) that a decision of the keychain
/// model can name. A call's outcome carries the rule that made it, set
/// where the decision is made — never a label applied afterwards — so the
/// call log names the code that decided (issue 48, item 3).
public enum SecRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case p1 = "P1"
    case p2 = "P2"
    case p3 = "P3"
    case q1 = "Q1"
    case q2 = "Q2"
    case q3 = "Q3"
    case q4 = "Q4"
    case q5 = "Q5"
    case q6 = "Q6"
    case q7 = "Q7"
    case q8 = "Q8"
    case q9 = "Q9"
    case q10 = "Q10"
    case q11 = "Q11"
    case q12 = "Q12"
    case q13 = "Q13"
    case q14 = "Q14"
    case q15 = "Q15"
    case q16 = "Q16"
    case a1 = "A1"
    case a2 = "A2"
    case a3 = "A3"
    case a4 = "A4"
    case a5 = "A5"
    case a6 = "A6"
    case a7 = "A7"
    case a8 = "A8"
    case a9 = "A9"
    case a10 = "A10"
    case a11 = "A11"
    case a12 = "A12"
    case a13 = "A13"
    case u1 = "U1"
    case u2 = "U2"
    case u3 = "U3"
    case u4 = "U4"
    case u5 = "U5"
    case u6 = "U6"
    case d1 = "D1"
    case d2 = "D2"
    case d3 = "D3"
    case d4 = "D4"
    case k1 = "K1"
    case k2 = "K2"
    case k3 = "K3"
    case k4 = "K4"
    case k5 = "K5"
    case ac1 = "AC1"
    case ac2 = "AC2"
    case ac3 = "AC3"
    case ac4 = "AC4"
    case ac5 = "AC5"
    case ac6 = "AC6"
    case ac7 = "AC7"
    case ac8 = "AC8"
    case ac9 = "AC9"
    case ac10 = "AC10"
    case la1 = "LA1"
    case la2 = "LA2"
    case la3 = "LA3"
    case la4 = "LA4"
    case la5 = "LA5"
    case la6 = "LA6"
    case la7 = "LA7"
    case la8 = "LA8"
    case la9 = "LA9"
    case la10 = "LA10"
    case la11 = "LA11"
    case la12 = "LA12"
    public var description: String { rawValue }
}

/// What decides an answer that no rule of the rule book decides: beside
/// ``SecRule``, never among its cases.
public enum RuleTag: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// §1d: the dictionary's keys dispatch (attribute, match, return, use, value).
    case dispatch = "§1d"
    /// The API layer: a value the bridge cannot hand the model.
    case api = "API"
    /// A device event, no rule.
    case deviceEvent = "device"
    /// A DeviceCheck or App Attest client call.
    case deviceCheck = "DC"
    /// An LARight call (docs/models/la-rights.md).
    case laRight = "LARight"

    public var description: String { rawValue }
}

/// What decided an answer: a rule of the book or a tag.
public enum Authority: Sendable, Hashable, CustomStringConvertible {
    case rule(SecRule)
    case tag(RuleTag)

    /// The id as logs and vectors write it (`Q4`, `§1d`).
    public var rawValue: String {
        switch self {
        case .rule(let rule): rule.rawValue
        case .tag(let tag): tag.rawValue
        }
    }

    /// The rule of the book, when a rule decided.
    public var bookRule: SecRule? {
        if case .rule(let rule) = self { return rule }
        return nil
    }

    public var description: String { rawValue }
}
