import VectorContract
import Foundation
import TrustSuiteSupport
#if canImport(AppleAPIDriver)
import AppleAPIDriver
import SecuritySimulation
#endif

/// The `apple-api` family: the driver replays the trace through `import
/// Security` and `import LocalAuthentication` (Linux: this project's
/// modules over the keychain model), each vector on a simulation of its
/// own (`Simulation.withNew`).
enum AppleAPISubject {
    static func evaluate(_ input: JSONValue) async throws -> SubjectAnswer {
        _ = try AppleAPIFamily.read(input)
        #if canImport(AppleAPIDriver)
        let data = try JSONEncoder().encode(input)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ReferenceInputError("the input is not an object")
        }
        // Each vector on a simulation of its own (issue 50): vectors replay in
        // parallel, and never race a test that uses the shared simulation.
        let (replayed, calls): (Data, [String]) = try await Simulation.withNew {
            do {
                let output = try await AppleAPIDriver(hooks: SimulationHooks(.current)).replay(object)
                // The model's call log: each Apple call with its status, rule and reason.
                return (try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys]), Simulation.current.calls.map(\.line))
            } catch let failure as AppleAPIDriver.Failure {
                throw ReferenceInputError(failure.description)
            }
        }
        var answer = SubjectAnswer(.valid, output: try JSONDecoder().decode(JSONValue.self, from: replayed))
        if !calls.isEmpty { answer.explanation = calls.joined(separator: "\n") }
        return answer
        #else
        return SubjectAnswer(.unsupported)
        #endif
    }
}
