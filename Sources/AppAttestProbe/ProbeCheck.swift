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
public enum ProbeGrade: String, Sendable, Hashable, CaseIterable {
    case pass, acceptedInvalid, refusedValid, error
}

/// One request sent and its answer.
public struct ProbeExchange: Sendable {
    public let request: ProbeRequest
    public let response: ProbeResponse

    public var summary: String {
        switch response {
        case .answered(let status, let body):
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
    /// Runs the check: setup steps throw ``ProbeStepFailure``; the returned
    /// exchanges are the judged ones, each expected to be `expected`.
    let body: @Sendable (ProbeSession) async throws(ProbeStepFailure) -> [ProbeExchange]

    init(
        _ id: String, _ expected: ProbeExpectation, sends: String, note: VectorNote,
        body: @escaping @Sendable (ProbeSession) async throws(ProbeStepFailure) -> [ProbeExchange]
    ) {
        self.id = id
        self.expected = expected
        self.sends = sends
        self.note = note
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

    /// Grades the judged exchanges: the first one that is not as expected decides.
    static func grade(_ check: ProbeCheck, judged: [ProbeExchange], endpoints: (ProbeExchange) -> (accepted: Set<Int>, refused: Set<Int>))
        -> (ProbeGrade, String)
    {
        guard !judged.isEmpty else { return (.error, "the check sent nothing to judge") }
        for (index, exchange) in judged.enumerated() {
            let step = judged.count > 1 ? " (request \(index + 1) of \(judged.count))" : ""
            switch exchange.response {
            case .failed(let reason):
                return (.error, "\(reason)\(step)")
            case .answered(let status, _):
                let lists = endpoints(exchange)
                let accepted = lists.accepted.contains(status), refused = lists.refused.contains(status)
                switch (check.expected, accepted, refused) {
                case (.accepted, true, _), (.refused, _, true):
                    continue
                case (.refused, true, _):
                    return (.acceptedInvalid, "accepted with \(status)\(step); a correct server refuses it")
                case (.accepted, _, true):
                    return (.refusedValid, "refused with \(status)\(step); a correct server accepts it")
                default:
                    return (.error, "status \(status)\(step) is in neither the accepted nor the refused list")
                }
            }
        }
        return (.pass, check.expected == .accepted ? "accepted" : "refused")
    }
}
