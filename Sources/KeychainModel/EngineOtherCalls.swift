import KeychainAccessControl

/// Entry points for the other services the simulation runs beside the
/// keychain (LARight, App Attest): they raise prompts from the same answer
/// queue and log to the same prompt and call logs as SecItem and LAContext,
/// so a test can mix them and read one log.
extension KeychainEngine {
    /// Raises one prompt for a call outside the keychain (`LARight.authorize`):
    /// the next queued answer, else the default answer (nil: strict, and the
    /// prompt is listed as unanswered).
    package mutating func raisePrompt(kind: String, reason: String, operation: String, call: String) -> PromptAnswer? {
        prompt(kind: kind, reason: reason, operation: operation, call: call)
    }

    /// Logs a call outside the keychain with its status, rule and reason.
    package mutating func logCall(_ call: String, status: Int32, _ ruling: Ruling, prompts: Int = 0) {
        log(call, status: status, ruling, prompts: prompts)
    }
}
