import KeychainAccessControl

/// What the trace vocabulary of `keychain-flow` (ReferenceSubjects'
/// `KeychainSimulator`) reads of the engine beside Apple's calls: a
/// context's proof and the access control that governs an item. Package
/// API: the engine keeps only the keychain.
extension KeychainEngine {
    /// A context as the engine holds it now.
    package struct ContextSnapshot: Sendable, Hashable {
        /// What it has proved (none once invalidated or expired).
        package let evidence: Evidence
        package let invalidated: Bool
        /// `evaluatedPolicyDomainState` (LA4).
        package let domainState: [UInt8]?
    }

    /// The context `id`, or nil when there is none.
    package func contextState(_ id: Int) -> ContextSnapshot? {
        guard let state = contexts[id] else { return nil }
        return ContextSnapshot(evidence: evidence(of: id), invalidated: state.invalidated, domainState: state.domainState)
    }

    /// The access control that governs the first item a copy query finds
    /// (a Secure Enclave key's own, K5); nil when nothing matches or the query does not parse.
    package func governingAccessControl(matching dictionary: [String: SecValue]) -> AccessControl? {
        (try? firstMatch(dictionary)).map(governingAccess)
    }

    /// The first item a copy query finds, or what the query answers instead
    /// (its parse failure, or not found): `evaluateAccessControl` and the
    /// inspection above look an item up alike.
    func firstMatch(_ dictionary: [String: SecValue]) throws(SecOutcome) -> StoredSecItem {
        let query = try SecQuery.parse(dictionary, for: .copyMatching)
        guard let id = matches(query).first, let item = items[id] else { throw notFound(query, call: .copyMatching) }
        return item
    }
}
