import KeychainAccessControl
import KeychainModel
import PropertyBased
import Testing
import TestSupport

/// Properties of the SecItem engine over random call sequences, each judged
/// by an oracle written here from the rule book, not by the engine's code:
/// no two items share a primary key (§2, computed here), a query never
/// returns an item that fails one of its filters (Q2–Q6), nothing deleted
/// is found again (D1), and a protected item is never read without a
/// prompt, whatever the query asks (Q12 as amended in rule book §9).
@Suite struct SecItemPropertyTests {
    typealias Dict = [String: SecValue]

    static let accounts: [SecValue?] = [nil, .string(""), .string("a"), .string("b")]
    static let services: [SecValue?] = [.string("s1"), .string("s2"), nil]
    static let protections: [SecValue?] = [nil, .string("ak"), .string("ck"), .string("aku")]
    static let syncs: [SecValue?] = [nil, .bool(false), .bool(true), .string("syna")]
    static let groups: [SecValue?] = [nil, .string("T.one"), .string("T.two"), .string("T.none")]
    static let flags: [AccessControlFlags?] = [nil, .userPresence, .biometryAny, .devicePasscode]
    static let answers: [PromptAnswer] = [.biometryMatch, .passcode, .cancel, .biometryNoMatch]
    static let app = AppIdentity(applicationIdentifier: "T.app", keychainAccessGroups: ["T.one", "T.two"])

    /// One call, decoded from numbers.
    struct Call: Sendable, CustomStringConvertible {
        let kind: Int, account: Int, service: Int, protection: Int, sync: Int, group: Int, extra: Int
        var description: String { "(\(kind) \(account) \(service) \(protection) \(sync) \(group) \(extra))" }

        /// The query (or attributes) the call names.
        func dictionary(forAdd: Bool) -> Dict {
            var result: Dict = ["class": .string("genp")]
            let picks: [(String, SecValue?)] = [
                ("acct", SecItemPropertyTests.accounts[account]), ("svce", SecItemPropertyTests.services[service]),
                ("pdmn", SecItemPropertyTests.protections[protection]), ("sync", SecItemPropertyTests.syncs[sync]),
                ("agrp", SecItemPropertyTests.groups[group]),
            ]
            for (key, value) in picks {
                guard let value else { continue }
                if forAdd && value == .string("syna") { continue }
                result[key] = value
            }
            return result
        }
    }

    static let call = zip(
        Gen.int(in: 0...7), Gen.int(in: 0...3), Gen.int(in: 0...2), Gen.int(in: 0...3), Gen.int(in: 0...3),
        Gen.int(in: 0...3), Gen.int(in: 0...15)
    )
    .map { Call(kind: $0.0, account: $0.1, service: $0.2, protection: $0.3, sync: $0.4, group: $0.5, extra: $0.6) }
    static let sequence = call.array(of: 1...30)

    /// The primary key as the rule book's §2 states it for generic
    /// passwords: account and service (empty when absent), access group,
    /// synchronizable (false when absent).
    static func primaryKey(_ attributes: Dict) -> [String] {
        func text(_ value: SecValue?) -> String {
            switch value {
            // Blob columns compare bytes (rule book §9): a string by its UTF-8.
            case .string(let s)?: return "b:" + Array(s.utf8).map { String($0) }.joined(separator: ",")
            case .data(let d)?: return "b:" + d.map { String($0) }.joined(separator: ",")
            case nil: return "b:"
            case let other?: return "?\(other)"
            }
        }
        let sync = attributes["sync"]?.boolValue ?? false
        return [text(attributes["acct"]), text(attributes["svce"]), text(attributes["agrp"]), sync ? "1" : "0"]
    }

    /// Whether an item's attributes pass every filter of `query` (Q2 equality, Q3 sync, Q4 pdmn, Q6 group).
    static func passes(_ item: Dict, _ query: Dict) -> Bool {
        for (key, wanted) in query where key != "class" {
            switch key {
            case "sync":
                if wanted == .string("syna") { continue }
                if (item["sync"]?.boolValue ?? false) != (wanted.boolValue ?? false) { return false }
            case "acct", "svce":
                // Blob columns compare bytes (§9); an absent one is empty.
                func bytes(_ value: SecValue?) -> [UInt8]? {
                    switch value {
                    case .string(let text)?: Array(text.utf8)
                    case .data(let data)?: data
                    case nil: []
                    default: nil
                    }
                }
                if bytes(item[key]) != bytes(wanted) { return false }
            case "pdmn", "agrp":
                if item[key] != wanted { return false }
            default:
                continue
            }
        }
        if query["sync"] == nil, item["sync"]?.boolValue == true { return false }
        return true
    }

    /// Every item, read through a copy of the engine that is unlocked and
    /// entitled to every group, so the scan itself cannot fail.
    static func everything(_ engine: KeychainEngine) -> [Dict] {
        var probe = engine
        probe.apply(.unlock)
        // Every read of a protected item prompts (Q12): answers that satisfy each kind of constraint.
        probe.answers = Array(repeating: [PromptAnswer.biometryMatch, .passcode], count: 8).flatMap { $0 }
        let outcome = probe.copyMatching(
            [
                "class": .string("genp"), "sync": .string("syna"), "m_Limit": .string("m_LimitAll"),
                "r_Attributes": .bool(true),
            ], wantsResult: true)
        guard case .array(let values)? = outcome.result else { return [] }
        return values.compactMap { value -> Dict? in
            if case .dictionary(let dict) = value { return dict }
            return nil
        }
    }

    func run(_ calls: [Call]) {
        var engine = KeychainEngine(app: Self.app)
        for call in calls {
            engine.answers = [Self.answers[call.extra % Self.answers.count]]
            switch call.kind {
            case 0, 1:
                var attributes = call.dictionary(forAdd: true)
                attributes["v_Data"] = .data([UInt8(call.extra)])
                if let flags = Self.flags[call.extra % Self.flags.count], attributes["sync"]?.boolValue != true,
                    case .success(let control) = engine.createAccessControl(
                        protection: attributes["pdmn"] ?? .string("ak"),
                        flags: UInt64(flags.rawValue))
                {
                    attributes["accc"] = .accessControl(control)
                    attributes["pdmn"] = nil
                }
                _ = engine.add(attributes, wantsResult: false)
            case 2:
                // An attribute-only read: a protected item is never returned
                // without a prompt (Q12, §9), and every item returned passes the filters.
                var query = call.dictionary(forAdd: false)
                query["m_Limit"] = .string("m_LimitAll")
                query["r_Attributes"] = .bool(true)
                let outcome = engine.copyMatching(query, wantsResult: true)
                if case .array(let values)? = outcome.result {
                    for case .dictionary(let item) in values {
                        #expect(Self.passes(item, query), "returned \(item) for \(query)")
                        if case .accessControl(let control)? = item["accc"], !control.flags.isEmpty {
                            #expect(outcome.prompts > 0, "a protected item was read without a prompt: \(outcome.explanation)")
                        }
                    }
                }
            case 3:
                var query = call.dictionary(forAdd: false)
                query["r_Data"] = .bool(true)
                let outcome = engine.copyMatching(query, wantsResult: true)
                if outcome.status == .success, case .data = outcome.result {
                    // The item read back passes the filters too: read its attributes the same way.
                    var attributes = query
                    attributes["r_Data"] = nil
                    attributes["r_Attributes"] = .bool(true)
                    let again = engine.copyMatching(attributes, wantsResult: true)
                    if case .dictionary(let item)? = again.result { #expect(Self.passes(item, query)) }
                }
            case 4:
                let query = call.dictionary(forAdd: false)
                let outcome = engine.delete(query)
                if outcome.status == .success {
                    #expect(engine.copyMatching(query, wantsResult: false).status == .itemNotFound, "deleted, yet found: \(query)")
                    #expect(!Self.everything(engine).contains { Self.passes($0, query) }, "a deleted item is still stored: \(query)")
                }
            case 5:
                let changes: Dict = call.extra % 2 == 0 ? ["acct": Self.accounts[call.extra % 4] ?? .string("")] : ["labl": .string("l")]
                _ = engine.update(call.dictionary(forAdd: false), changes)
            case 6:
                engine.apply(call.extra % 2 == 0 ? .lock : .unlock)
            default:
                engine.now += 1
            }
            let keys = Self.everything(engine).map(Self.primaryKey)
            #expect(Set(keys).count == keys.count, "two items share a primary key after \(call): \(keys)")
        }
    }

    @Test func primaryKeysFiltersDeletesAndPrompts() async {
        let pace = Pace()
        await propertyCheck(count: 600, input: Self.sequence) { calls in
            await pace.step()
            run(calls)
        }
    }
}
