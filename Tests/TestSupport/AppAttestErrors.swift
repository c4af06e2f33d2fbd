import AppAttest
import Testing

/// The App Attest error code `body` throws; nil when it succeeds. Any other
/// error is recorded: it is neither an acceptance nor a rejection.
public func appAttestErrorCode(_ body: () async throws -> Void) async -> AppAttestError.Code? {
    do {
        try await body()
        return nil
    } catch let error as AppAttestError {
        return error.code
    } catch {
        Issue.record("a foreign error is neither an acceptance nor a rejection: \(error)")
        return nil
    }
}
