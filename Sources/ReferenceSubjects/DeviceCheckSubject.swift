import DeviceCheckModel
import AppAttest
import VectorContract
import TrustSuiteSupport

/// `devicecheck` against ``DeviceCheckServer``: each step's request goes to
/// one fresh server; the answer is `{status, body}` per step.
enum DeviceCheckSubject {
    static func evaluate(_ input: DeviceCheckFamily.Input) throws -> SubjectAnswer {
        var server = DeviceCheckServer()
        var answers: [JSONValue] = []
        for (index, step) in input.steps.enumerated() {
            guard let at = RFC3339.parse(step.at) else { throw ReferenceInputError("steps[\(index)].at must be RFC 3339") }
            let response = server.handle(
                try model(step.op), request: DeviceCheckJSON.request(step.request),
                team: step.team ?? "TEAM", authorized: step.authorized ?? true, at: at)
            answers.append(.object(["status": .int(Int64(response.status)), "body": DeviceCheckJSON.body(response.body)]))
        }
        return SubjectAnswer(.valid, output: .object(["steps": .array(answers)]))
    }
}
