import KeychainAccessControl
import KeychainModel
import PropertyBased
import Testing

/// Rule book §9, "Values kept as given": blob columns (account, service,
/// label, …) keep the caller's bytes and compare byte for byte. Items stored
/// under random byte strings — invalid UTF-8 included — are each found with
/// their own data and nothing else's; the oracle is a dictionary keyed by
/// the raw bytes, written here, not the engine's code.
@Suite struct BlobValuePropertyTests {
    typealias Dict = [String: SecValue]

    /// Short byte strings from a small alphabet, so that collisions under a
    /// lossy conversion (0xFE and 0xFF both decode to U+FFFD) are likely.
    static let alphabet: [UInt8] = [0x00, 0x41, 0x80, 0xC3, 0xFE, 0xFF]
    static let account = Gen.int(in: 0...5).map { alphabet[$0] }.array(of: 0...4)
    static let accounts = account.array(of: 1...12)

    @Test func randomByteAccountsAreDistinctItems() async {
        await propertyCheck(count: 500, input: Self.accounts) { accounts in
            var engine = KeychainEngine()
            var oracle: [[UInt8]: [UInt8]] = [:]
            for (index, account) in accounts.enumerated() {
                let secret = Array("secret-\(index)".utf8)
                let outcome = engine.add(
                    ["class": .string("genp"), "svce": .string("svc"), "acct": .data(account), "v_Data": .data(secret)],
                    wantsResult: false)
                if oracle[account] == nil {
                    #expect(outcome.status == .success, "add \(account): \(outcome.explanation)")
                    oracle[account] = secret
                } else {
                    #expect(outcome.status == .duplicateItem, "a second add of \(account) must collide: \(outcome.explanation)")
                }
            }
            for (account, secret) in oracle {
                let read = engine.copyMatching(
                    ["class": .string("genp"), "svce": .string("svc"), "acct": .data(account), "r_Data": .bool(true)],
                    wantsResult: true)
                #expect(read.status == .success, "read \(account): \(read.explanation)")
                #expect(read.result == .data(secret), "the account \(account) must read its own secret")
                let attributes = engine.copyMatching(
                    ["class": .string("genp"), "svce": .string("svc"), "acct": .data(account), "r_Attributes": .bool(true)],
                    wantsResult: true)
                guard case .dictionary(let found)? = attributes.result else {
                    Issue.record("no attributes for \(account): \(attributes.explanation)")
                    continue
                }
                #expect(found["acct"] == .data(account), "the account keeps its type and bytes")
            }
            let all = engine.copyMatching(["class": .string("genp"), "m_Limit": .string("m_LimitAll")], wantsResult: true)
            #expect(all.count == oracle.count, "one item per distinct byte string")
        }
    }

    @Test func aStringAndItsUTF8DataAreOneKeyAndKeepTheirTypes() {
        var engine = KeychainEngine()
        let added = engine.add(
            ["class": .string("genp"), "acct": .data(Array("alice".utf8)), "labl": .data([0xFF, 0x01]), "v_Data": .data([1])],
            wantsResult: false)
        #expect(added.status == .success)
        #expect(engine.add(["class": .string("genp"), "acct": .string("alice")], wantsResult: false).status == .duplicateItem)
        let read = engine.copyMatching(
            ["class": .string("genp"), "acct": .string("alice"), "r_Attributes": .bool(true)], wantsResult: true)
        guard case .dictionary(let found)? = read.result else {
            Issue.record("not found: \(read.explanation)")
            return
        }
        #expect(found["acct"] == .data(Array("alice".utf8)))
        #expect(found["labl"] == .data([0xFF, 0x01]))
    }

    @Test(arguments: [
        (SecValue.string("ftp "), SecValue.string("ftp ")), (.string("21"), .number(21)), (.string("021"), .string("021")),
        (.bool(true), .number(1)), (.number(-3), .number(-3)),
    ])
    func numberColumnsConvertOnlyIntegerStrings(_ given: SecValue, _ stored: SecValue) {
        var engine = KeychainEngine()
        let added = engine.add(
            ["class": .string("inet"), "srvr": .string("example.com"), "ptcl": given, "r_Attributes": .bool(true)],
            wantsResult: true)
        guard case .dictionary(let found)? = added.result else {
            Issue.record("add failed: \(added.explanation)")
            return
        }
        #expect(found["ptcl"] == stored)
        let again = engine.copyMatching(["class": .string("inet"), "ptcl": given], wantsResult: false)
        #expect(again.status == .success, "\(again.explanation)")
    }
}
