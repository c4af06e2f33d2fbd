import KeychainAccessControl
@testable import KeychainModel
import Testing

/// The keychain compares text by its bytes (issue 61, item 9): SQLite's
/// BINARY collation compares UTF-8 bytes, and `CFEqual` compares UTF-16
/// code units, so a string in NFC and the same string in NFD are two
/// values on a device. Swift's `==` takes them for one (canonical
/// equivalence): before, the second account was a duplicate of the first,
/// and an app entitled to `T.café` (NFC) read another app's item in
/// `T.café` (NFD).
@Suite struct ByteComparisonTests {
    typealias Dict = [String: SecValue]
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    static func item(account: SecValue, data: UInt8, _ extra: Dict = [:]) -> Dict {
        var result: Dict = ["class": .string("genp"), "svce": .string("svc"), "acct": account, "v_Data": .data([data])]
        for (key, value) in extra { result[key] = value }
        return result
    }

    @Test func accountsInNFCAndNFDAreTwoItems() {
        #expect(Self.composed == Self.decomposed, "Swift's == is the trap this test is about")
        var engine = KeychainEngine()
        #expect(engine.add(Self.item(account: .string(Self.composed), data: 1), wantsResult: false).status == .success)
        let second = engine.add(Self.item(account: .string(Self.decomposed), data: 2), wantsResult: false)
        #expect(second.status == .success, "\(second.explanation)")
        for (account, data) in [(Self.composed, UInt8(1)), (Self.decomposed, 2)] {
            let found = engine.copyMatching(
                ["class": .string("genp"), "svce": .string("svc"), "acct": .string(account), "r_Data": .bool(true)], wantsResult: true)
            #expect(found.status == .success && found.result == .data([data]), "\(found.explanation)")
        }
    }

    @Test func accessGroupsInNFCAndNFDAreTwoGroups() {
        var engine = KeychainEngine(app: AppIdentity(applicationIdentifier: "T.other", keychainAccessGroups: ["T.\(Self.decomposed)"]))
        #expect(engine.add(Self.item(account: .string("a"), data: 1), wantsResult: false).status == .success)
        // Another app, entitled to the NFC spelling only.
        engine.app = AppIdentity(applicationIdentifier: "T.app", keychainAccessGroups: ["T.\(Self.composed)"])
        let read = engine.copyMatching(["class": .string("genp"), "svce": .string("svc"), "r_Data": .bool(true)], wantsResult: true)
        #expect(read.status == .itemNotFound, "\(read.explanation)")
        let named = engine.copyMatching(
            ["class": .string("genp"), "agrp": .string("T.\(Self.decomposed)"), "r_Data": .bool(true)], wantsResult: true)
        #expect(named.status == .missingEntitlement, "\(named.explanation)")
        let added = engine.add(Self.item(account: .string("b"), data: 2, ["agrp": .string("T.\(Self.decomposed)")]), wantsResult: false)
        #expect(added.status == .missingEntitlement, "\(added.explanation)")
    }

    /// A number in a blob column (`acct`) is its 32-bit integer, as Apple's
    /// securityd stores it (`CFNumberGetValue` as SInt32, four bytes): so
    /// 2^32 + 7 is the account 7 on a device too. Kept, as Apple's platform
    /// behaves (docs/models/secitem.md); the audit's item 9 listed it.
    @Test func aNumberInABlobColumnIsItsThirtyTwoBitInteger() {
        var engine = KeychainEngine()
        #expect(engine.add(Self.item(account: .number(7), data: 1), wantsResult: false).status == .success)
        let found = engine.copyMatching(
            ["class": .string("genp"), "svce": .string("svc"), "acct": .number(4_294_967_303), "r_Data": .bool(true)], wantsResult: true)
        #expect(found.status == .success && found.result == .data([1]), "\(found.explanation)")
    }
}
