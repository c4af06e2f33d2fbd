import VectorContract
import Foundation
import TrustSuiteSupport
#if canImport(AppleAPIDriver)
import AppleAPIDriver
import SecuritySimulation
#endif

/// The `apple-api` family: the driver replays the trace through `import
/// Security` and `import LocalAuthentication` (Linux: this project's
/// modules over the keychain model), one vector at a time on the shared
/// simulation.
enum AppleAPISubject {
    static func evaluate(_ input: JSONValue) async throws -> SubjectAnswer {
        _ = try AppleAPIFamily.read(input)
        #if canImport(AppleAPIDriver)
        let data = try JSONEncoder().encode(input)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ReferenceInputError("the input is not an object")
        }
        let replayed: Data = try await Simulation.shared.session {
            do {
                let output = try AppleAPIDriver(hooks: SimulationHooks()).replay(object)
                return try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys])
            } catch let failure as AppleAPIDriver.Failure {
                throw ReferenceInputError(failure.description)
            }
        }
        return SubjectAnswer(.valid, output: try JSONDecoder().decode(JSONValue.self, from: replayed))
        #else
        return SubjectAnswer(.unsupported)
        #endif
    }
}
