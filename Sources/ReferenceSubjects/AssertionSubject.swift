import AppAttest
import VectorContract
import StrictCBOR
import TrustSuiteSupport

/// `app-attest-assertion` against ``AssertionVerifier``.
extension AppAttestSubject {
    static func assertion(_ input: AssertionFamily.Input) throws -> SubjectAnswer {
        try assertion(input, launchPolicy: try launchPolicy(input))
    }

    /// An assertion vector under `launchPolicy` in place of the input's own.
    package static func assertion(_ input: JSONValue, launchPolicy: LaunchPolicy?) throws -> SubjectAnswer {
        try assertion(AssertionFamily.read(input), launchPolicy: launchPolicy)
    }

    static func assertion(_ input: AssertionFamily.Input, launchPolicy: LaunchPolicy?) throws -> SubjectAnswer {
        guard let key = ES256.publicKey(input.publicKey.bytes) else {
            throw ReferenceInputError("publicKey must be a P-256 key (X9.63 or SPKI)")
        }
        do {
            let verified = try AssertionVerifier(appId: input.appId, launchPolicy: launchPolicy).verify(
                assertion: input.assertion.bytes, clientData: input.clientData.bytes,
                publicKey: key, previousCounter: input.previousCounter)
            var output: [String: JSONValue] = ["counter": .int(Int64(verified.counter))]
            if let extensions = verified.extensions { output["extensions"] = .string(extensions.diagnostic) }
            return SubjectAnswer(.valid, output: .object(output))
        } catch {
            return rejected(error)
        }
    }
}
