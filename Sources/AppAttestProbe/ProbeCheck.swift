import VectorContract
import Foundation

/// What a correct server answers to a check's judged requests.
public enum ProbeExpectation: String, Sendable, Hashable {
    case accepted, refused
}

/// A check's grade (docs/probe.md, Output). `acceptedInvalid` is the
/// dangerous kind (the server let through what must be refused);
/// `refusedValid` locks real users out; `error` is neither pass nor a
/// verdict: a timeout, a refused connection, a status outside both lists,
/// or a setup step the server refused (so the check could not be judged).
/// `notRun`: the baseline this check depends on did not pass, so the check
/// was not sent (docs/probe.md: one failure, one finding); never a pass.
public enum ProbeGrade: String, Sendable, Hashable, CaseIterable {
    case pass, acceptedInvalid, refusedValid, error, notRun
}

/// One request sent and its answer.
public struct ProbeExchange: Sendable {
    public let request: ProbeRequest
    public let response: ProbeResponse

    public var summary: String {
        switch response {
        case .answered(let status, let body, _):
            let text = String(decoding: body.prefix(ProbeRequest.shownBodyCharacters), as: UTF8.self)
            return "\(request.method) \(request.path) → \(status)" + (text.isEmpty ? "" : " \(text)")
        case .failed(let reason):
            return "\(request.method) \(request.path) → \(reason)"
        }
    }
}

/// Why a check could not be judged.
public struct ProbeStepFailure: Error, Sendable {
    public let message: String
    public let exchange: ProbeExchange?

    init(_ message: String, exchange: ProbeExchange? = nil) {
        self.message = message
        self.exchange = exchange
    }
}

/// One conformance check (docs/probe.md, Checks): an id, what the device
/// sends, the expected answer, and the real bug class it stands for (a
/// note in the vectors' form, with its public reports).
public struct ProbeCheck: Sendable {
    public let id: String
    /// baseline, replay, challenge, binding, trust, signatures, ios27, launch.
    public var group: String { String(id.prefix { $0 != "." }) }
    /// What the device sends, in one sentence.
    public let sends: String
    public let expected: ProbeExpectation
    /// The bug class: what a server that fails this check gets wrong.
    public let note: VectorNote
    /// The baseline checks this one stands on (docs/probe.md, One failure,
    /// one finding): when one of them ran and did not pass, this check is
    /// `notRun`. Every check stands on `baseline.attestation` (a server
    /// that refuses genuine attestations refuses forged ones for nothing);
    /// checks that send assertions stand on `baseline.assertions` too.
    public var dependsOn: [String] {
        if id == ProbeCatalog.baselineAttestation { return [] }
        if id == ProbeCatalog.baselineAssertions || !sendsAssertions { return [ProbeCatalog.baselineAttestation] }
        return [ProbeCatalog.baselineAttestation, ProbeCatalog.baselineAssertions]
    }
    /// Whether the check sends assertions (setup or judged).
    public let sendsAssertions: Bool
    /// Runs the check: setup steps throw ``ProbeStepFailure``; the returned
    /// exchanges are the judged ones, each expected to be `expected`.
    let body: @Sendable (ProbeSession) async throws(ProbeStepFailure) -> [ProbeExchange]

    init(
        _ id: String, _ expected: ProbeExpectation, sends: String, note: VectorNote, assertions: Bool = false,
        body: @escaping @Sendable (ProbeSession) async throws(ProbeStepFailure) -> [ProbeExchange]
    ) {
        self.id = id
        self.expected = expected
        self.sends = sends
        self.note = note
        self.sendsAssertions = assertions
        self.body = body
    }
}

/// A check's outcome.
public struct ProbeResult: Sendable {
    public let check: ProbeCheck
    public let grade: ProbeGrade
    public let message: String
    /// Every request of the check, setup included, in order.
    public let exchanges: [ProbeExchange]
    public let seconds: Double

    /// Grades the judged exchanges: the first one that is not as expected
    /// decides. `endpoint` gives the config's endpoint of an exchange (its
    /// lists and `acceptedWhen`).
    static func grade(_ check: ProbeCheck, judged: [ProbeExchange], endpoint: (ProbeExchange) -> ProbeConfig.Endpoint)
        -> (ProbeGrade, String)
    {
        guard !judged.isEmpty else { return (.error, "the check sent nothing to judge") }
        var signals: [String] = []
        for (index, exchange) in judged.enumerated() {
            let step = judged.count > 1 ? " (request \(index + 1) of \(judged.count))" : ""
            switch (check.expected, endpoint(exchange).read(exchange.response)) {
            case (_, .failed(let reason)):
                return (.error, "\(reason)\(step)")
            case (.accepted, .accepted), (.refused, .refused(_, nil)):
                continue
            case (.refused, .refused(let status, let signal?)):
                signals.append("\(status)\(step), and the server signalled the refusal in the answer: \(signal)")
            case (.refused, .accepted(let status)):
                return (.acceptedInvalid, "accepted with \(status)\(step); a correct server refuses it")
            case (.accepted, .refused(let status, nil)):
                return (.refusedValid, "refused with \(status)\(step); a correct server accepts it")
            case (.accepted, .refused(let status, let signal?)):
                return (
                    .refusedValid,
                    "refused: answered \(status)\(step), but the server signalled the refusal in the answer: \(signal) "
                        + "(acceptedWhen); a correct server accepts it"
                )
            case (_, .neither(let status)):
                return (.error, "status \(status)\(step) is in neither the accepted nor the refused list")
            }
        }
        if check.expected == .accepted { return (.pass, "accepted") }
        return (.pass, signals.isEmpty ? "refused" : "refused: " + signals.joined(separator: "; "))
    }
}
