import KeychainAccessControl
@testable import KeychainModel
import Testing

/// One scenario per rule of the rule book (spec/secitem-rules.md, as
/// docs/models/secitem.md decides it): the status and the rule id that the
/// engine's explanation names.
@Suite struct SecItemRuleTests {
    typealias Dict = [String: SecValue]

    static func password(_ extra: Dict = [:]) -> Dict {
        var result: Dict = ["class": .string("genp"), "svce": .string("svc"), "acct": .string("a"), "v_Data": .data([1, 2, 3])]
        for (key, value) in extra { result[key] = value }
        return result
    }

    static func query(_ extra: Dict = [:]) -> Dict {
        var result: Dict = ["class": .string("genp"), "svce": .string("svc"), "acct": .string("a")]
        for (key, value) in extra { result[key] = value }
        return result
    }

    static let yes = SecValue.bool(true)

    func fail(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
    }

    func expect(_ outcome: SecOutcome, _ status: SecStatus, _ rule: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.status == status, "\(outcome.explanation)", sourceLocation: sourceLocation)
        #expect(outcome.rule.rawValue == rule, "\(outcome.explanation)", sourceLocation: sourceLocation)
    }

    func control(_ engine: inout KeychainEngine, _ flags: AccessControlFlags, _ protection: String = "ak") -> SecValue {
        guard case .success(let value) = engine.createAccessControl(protection: .string(protection), flags: UInt64(flags.rawValue)) else {
            Issue.record("access control refused")
            return .unsupported("none")
        }
        return .accessControl(value)
    }

    /// Issue 48, item 3: every rule id of the rule book is one case of
    /// `SecRule`, the type every outcome's rule has.
    @Test(arguments: [("P", 3), ("Q", 16), ("A", 13), ("U", 6), ("D", 4), ("K", 5), ("AC", 10), ("LA", 12)])
    func everyRuleOfTheBookIsACase(_ prefix: String, _ count: Int) {
        for number in 1...count {
            #expect(SecRule(rawValue: "\(prefix)\(number)") != nil, "\(prefix)\(number) is not a SecRule")
        }
        #expect(
            SecRule.allCases.filter { $0.rawValue.hasPrefix(prefix) && $0.rawValue.dropFirst(prefix.count).allSatisfy(\.isNumber) }.count
                == count)
    }

    // MARK: §2 primary keys

    @Test func p1AccessibilityIsNotPartOfThePrimaryKey() {
        var engine = KeychainEngine()
        expect(engine.add(Self.password(["pdmn": .string("ck")]), wantsResult: false), .success, "A1")
        let again = engine.add(Self.password(["pdmn": .string("ak"), "labl": .string("other")]), wantsResult: false)
        expect(again, .duplicateItem, "A6")
        #expect(again.reason.contains("P1"))
    }

    @Test func hiddenDefaultsMakeAnAbsentAccountTheEmptyOne() {
        var engine = KeychainEngine()
        expect(engine.add(["class": .string("genp"), "svce": .string("svc")], wantsResult: false), .success, "A1")
        expect(
            engine.add(["class": .string("genp"), "svce": .string("svc"), "acct": .string("")], wantsResult: false), .duplicateItem, "A6")
        expect(engine.copyMatching(["class": .string("genp"), "acct": .string("")], wantsResult: false), .success, "Q12")
    }

    @Test func p3SynchronizableAndLocalCopiesCoexist() {
        var engine = KeychainEngine()
        expect(engine.add(Self.password(["sync": Self.yes]), wantsResult: false), .success, "A1")
        expect(engine.add(Self.password(), wantsResult: false), .success, "A1")
        let all = engine.copyMatching(
            Self.query(["sync": .string("syna"), "m_Limit": .string("m_LimitAll"), "r_Attributes": Self.yes]),
            wantsResult: true)
        guard case .array(let items)? = all.result else { return fail("\(all.explanation)") }
        #expect(items.count == 2)
    }

    // MARK: §3 queries

    @Test func q1ClassIsRequiredAndKnown() {
        var engine = KeychainEngine()
        expect(engine.copyMatching(["acct": .string("a")], wantsResult: false), .param, "Q1")
        expect(engine.copyMatching(["class": .string("nope")], wantsResult: false), .noSuchClass, "Q1")
    }

    @Test func q2AnAttributeTheClassLacksIsNoSuchAttr() {
        var engine = KeychainEngine()
        let tagged = Self.password(["atag": .data([1])])
        expect(engine.add(tagged, wantsResult: false), .noSuchAttr, "Q2")
        expect(engine.copyMatching(Self.query(["srvr": .string("host")]), wantsResult: false), .noSuchAttr, "Q2")
        expect(engine.delete(Self.query(["atag": .data([1])])), .noSuchAttr, "Q2")
    }

    @Test func q2StringsCompareExactly() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        expect(engine.copyMatching(Self.query(["acct": .string("A")]), wantsResult: false), .itemNotFound, "Q11")
    }

    @Test func q3TheSyncFilterHidesSynchronizableItemsFromCopyUpdateAndDelete() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["sync": Self.yes]), wantsResult: false)
        let copy = engine.copyMatching(Self.query(), wantsResult: false)
        expect(copy, .itemNotFound, "Q3")
        expect(engine.update(Self.query(), ["v_Data": .data([9])]), .itemNotFound, "Q3")
        let delete = engine.delete(Self.query())
        expect(delete, .itemNotFound, "D2")
        #expect(delete.reason.contains("synchronizable copy was not seen"))
        expect(engine.copyMatching(Self.query(["sync": .string("syna")]), wantsResult: false), .success, "Q12")
        expect(engine.copyMatching(Self.query(["sync": Self.yes]), wantsResult: false), .success, "Q12")
        expect(engine.delete(Self.query(["sync": .string("syna")])), .success, "D1")
    }

    @Test func q4AccessibilityInAQueryFilters() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["pdmn": .string("ck")]), wantsResult: false)
        let miss = engine.copyMatching(Self.query(["pdmn": .string("ak")]), wantsResult: false)
        expect(miss, .itemNotFound, "Q4")
        #expect(miss.explanation == "Q4: the query's kSecAttrAccessible ak filters out the item stored as ck")
        expect(engine.copyMatching(Self.query(["pdmn": .string("ck")]), wantsResult: false), .success, "Q12")
    }

    @Test func q5DataAndAccessControlInAQueryDoNotFilter() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        let other = control(&engine, .biometryAny)
        expect(engine.copyMatching(Self.query(["v_Data": .data([7]), "accc": other]), wantsResult: false), .success, "Q12")
    }

    @Test func q6AccessGroupsInEntitlementOrder() {
        var engine = KeychainEngine(app: AppIdentity(applicationIdentifier: "T.app", keychainAccessGroups: ["T.shared", "T.other"]))
        let added = engine.add(Self.password(["r_Attributes": Self.yes]), wantsResult: true)
        guard case .dictionary(let attributes)? = added.result else { return fail("\(added.explanation)") }
        #expect(attributes["agrp"] == .string("T.shared"))
        expect(engine.add(Self.password(["agrp": .string("T.other"), "acct": .string("b")]), wantsResult: false), .success, "A1")
        expect(engine.copyMatching(Self.query(["acct": .string("b")]), wantsResult: false), .success, "Q12")
        expect(engine.copyMatching(Self.query(["agrp": .string("X.foreign")]), wantsResult: false), .missingEntitlement, "Q6")
        expect(engine.add(Self.password(["agrp": .string("X.foreign")]), wantsResult: false), .missingEntitlement, "Q6")
        expect(engine.delete(Self.query(["agrp": .string("X.foreign")])), .missingEntitlement, "Q6")
        expect(engine.update(Self.query(["agrp": .string("X.foreign")]), ["labl": .string("l")]), .missingEntitlement, "Q6")
        expect(engine.add(Self.password(["agrp": .string("com.apple.token")]), wantsResult: false), .missingEntitlement, "A2")
    }

    @Test func q7MatchLimits() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        let all = engine.copyMatching(Self.query(["m_Limit": .string("m_LimitAll"), "r_Data": Self.yes]), wantsResult: true)
        #expect(all.result == .array([.data([1, 2, 3])]))
        let two = engine.copyMatching(Self.query(["m_Limit": .number(2), "r_Data": Self.yes]), wantsResult: true)
        #expect(two.result == .array([.data([1, 2, 3])]))
        let one = engine.copyMatching(Self.query(["m_Limit": .number(1), "r_Data": Self.yes]), wantsResult: true)
        #expect(one.result == .data([1, 2, 3]))
        // §9: any number is a limit — 0 selects nothing, -1 is unlimited, another negative number one item in an array.
        expect(engine.copyMatching(Self.query(["m_Limit": .number(0)]), wantsResult: false), .itemNotFound, "Q7")
        _ = engine.add(Self.password(["acct": .string("b")]), wantsResult: false)
        let unlimited = engine.copyMatching(["class": .string("genp"), "m_Limit": .number(-1), "r_Data": Self.yes], wantsResult: true)
        #expect(unlimited.result == .array([.data([1, 2, 3]), .data([1, 2, 3])]))
        let negative = engine.copyMatching(["class": .string("genp"), "m_Limit": .number(-9), "r_Data": Self.yes], wantsResult: true)
        #expect(negative.result == .array([.data([1, 2, 3])]))
        let real = engine.copyMatching(["class": .string("genp"), "m_Limit": .real(2.5), "r_Data": Self.yes], wantsResult: true)
        #expect(real.count == 2)
        expect(engine.copyMatching(Self.query(["m_Limit": .string("many")]), wantsResult: false), .param, "Q7")
    }

    @Test func q8ResultShapes() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        #expect(engine.copyMatching(Self.query(), wantsResult: true).result == nil)
        #expect(engine.copyMatching(Self.query(["m_Limit": .string("m_LimitAll")]), wantsResult: true).result == .array([]))
        #expect(engine.copyMatching(Self.query(["r_Data": Self.yes]), wantsResult: true).result == .data([1, 2, 3]))
        guard case .dictionary(let attributes)? = engine.copyMatching(Self.query(["r_Attributes": Self.yes]), wantsResult: true).result
        else {
            return fail("no attributes")
        }
        #expect(attributes["v_Data"] == nil && attributes["acct"] == .string("a") && attributes["class"] == .string("genp"))
        guard case .data(let reference)? = engine.copyMatching(Self.query(["r_PersistentRef": Self.yes]), wantsResult: true).result else {
            return fail("no persistent reference")
        }
        #expect(reference.prefix(4) == Array("genp".utf8)[...] && reference.count == 20)
        let ref = engine.copyMatching(Self.query(["r_Ref": Self.yes]), wantsResult: true)
        #expect(ref.status == .success && ref.result == nil, "no reference exists for passwords on iOS")
        guard
            case .dictionary(let both)? = engine.copyMatching(
                Self.query(["r_Data": Self.yes, "r_PersistentRef": Self.yes]), wantsResult: true
            )
            .result
        else { return fail("no dictionary") }
        #expect(both["v_Data"] == .data([1, 2, 3]) && both["v_PersistentRef"] == .data(reference) && both["acct"] == .string("a"))
    }

    @Test func q9AReturnKeyWithoutAResultPointerIsNoError() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        expect(engine.copyMatching(Self.query(["r_Data": Self.yes]), wantsResult: false), .success, "Q9")
        // §9: the protected item is still authenticated.
        _ = engine.add(Self.password(["acct": .string("b"), "accc": control(&engine, .biometryAny)]), wantsResult: false)
        engine.answers = [.cancel]
        expect(engine.copyMatching(Self.query(["acct": .string("b"), "r_Data": Self.yes]), wantsResult: false), .userCanceled, "AC10")
    }

    @Test func q11ALockedMatchAbortsTheWholeQuery() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["pdmn": .string("ck"), "acct": .string("first")]), wantsResult: false)
        _ = engine.add(Self.password(), wantsResult: false)
        engine.apply(.lock)
        let all = engine.copyMatching(
            ["class": .string("genp"), "m_Limit": .string("m_LimitAll"), "r_Attributes": Self.yes], wantsResult: true)
        expect(all, .interactionNotAllowed, "Q11")
        expect(engine.copyMatching(Self.query(), wantsResult: false), .interactionNotAllowed, "Q11")
        expect(engine.copyMatching(Self.query(["acct": .string("first")]), wantsResult: false), .success, "Q12")
    }

    /// Q12 as amended (§9): every read of an item with constraints authenticates, whatever it asks.
    @Test(arguments: [
        ["r_Attributes": SecValue.bool(true), "r_PersistentRef": .bool(true)], ["r_PersistentRef": .bool(true)], ["r_Ref": .bool(true)],
        [:], ["r_Data": .bool(true)],
    ])
    func q12EveryReadOfAProtectedItemAuthenticates(_ returns: Dict) {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["accc": control(&engine, .biometryAny)]), wantsResult: false)
        engine.answers = [.biometryMatch]
        let read = engine.copyMatching(Self.query(returns), wantsResult: true)
        #expect(read.status == .success && read.prompts == 1, "\(read.explanation)")
        expect(
            engine.copyMatching(Self.query(returns.merging(["u_AuthUI": .string("u_AuthUIF")]) { $1 }), wantsResult: true),
            .interactionNotAllowed, "AC7")
        // A protection class alone needs no authentication.
        _ = engine.add(Self.password(["acct": .string("plain"), "pdmn": .string("ck")]), wantsResult: false)
        let plain = engine.copyMatching(Self.query(returns.merging(["acct": .string("plain")]) { $1 }), wantsResult: true)
        #expect(plain.status == .success && plain.prompts == 0, "\(plain.explanation)")
    }

    @Test func q13AndQ14AcceptedWithoutEffect() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        expect(engine.copyMatching(Self.query(["m_CaseInsensitive": Self.yes, "nleg": Self.yes]), wantsResult: false), .success, "Q12")
        expect(
            engine.copyMatching(Self.query(["m_HostOrSubdomainOfHost": .string("example.com")]), wantsResult: false), .unimplemented, "Q13")
    }

    @Test func q15PersistentReferencesStandAlone() {
        var engine = KeychainEngine()
        let added = engine.add(Self.password(["r_PersistentRef": Self.yes]), wantsResult: true)
        guard case .data(let reference)? = added.result else { return fail("\(added.explanation)") }
        expect(engine.copyMatching(["v_PersistentRef": .data(reference)], wantsResult: false), .success, "Q12")
        expect(engine.copyMatching(["v_PersistentRef": .data(reference), "acct": .string("a")], wantsResult: false), .param, "Q15")
    }

    @Test func q16AccessControlMustBeOne() {
        var engine = KeychainEngine()
        expect(engine.add(Self.password(["accc": .string("ak")]), wantsResult: false), .param, "Q16")
    }

    // MARK: §4 add, update, delete

    @Test func a1DefaultAccessibilityAndInvalidOnes() {
        var engine = KeychainEngine()
        let added = engine.add(Self.password(["r_Attributes": Self.yes]), wantsResult: true)
        guard case .dictionary(let attributes)? = added.result else { return fail("\(added.explanation)") }
        #expect(attributes["pdmn"] == .string("ak") && attributes["sync"] == .number(0))
        let certificate = engine.add(["class": .string("cert"), "slnr": .data([1]), "r_Attributes": Self.yes], wantsResult: true)
        guard case .dictionary(let cert)? = certificate.result else { return fail("\(certificate.explanation)") }
        #expect(cert["pdmn"] == .string("dk"))
        expect(engine.add(Self.password(["acct": .string("x"), "pdmn": .string("zz")]), wantsResult: false), .param, "A1")
    }

    @Test func a4AddWithoutDataIsValid() {
        var engine = KeychainEngine()
        expect(engine.add(Self.query(), wantsResult: false), .success, "A1")
        // §9 (Q8/A4): data alone of an item without data: status 0, no result.
        let read = engine.copyMatching(Self.query(["r_Data": Self.yes]), wantsResult: true)
        #expect(read.status == .success && read.result == nil)
    }

    @Test func a7MatchAndPersistentReferenceHaveNoPlaceInAdd() {
        var engine = KeychainEngine()
        expect(engine.add(Self.password(["m_Limit": .string("m_LimitOne")]), wantsResult: false), .param, "A7")
        expect(engine.add(Self.password(["v_PersistentRef": .data(Array("genp".utf8))]), wantsResult: false), .param, "A7")
    }

    @Test func a8ConflictingAccessibilityAndAccessControl() {
        var engine = KeychainEngine()
        let control = control(&engine, .userPresence, "aku")
        expect(engine.add(Self.password(["pdmn": .string("ak"), "accc": control]), wantsResult: false), .param, "A8")
        // §9: the same protection conflicts too, and so do both in attributesToUpdate.
        expect(engine.add(Self.password(["pdmn": .string("aku"), "accc": control]), wantsResult: false), .param, "A8")
        _ = engine.add(Self.password(), wantsResult: false)
        expect(engine.update(Self.query(), ["pdmn": .string("aku"), "accc": control]), .param, "A8")
    }

    @Test func a9AndA10SynchronizableLimits() {
        var engine = KeychainEngine()
        expect(engine.add(Self.password(["sync": Self.yes, "accc": control(&engine, .userPresence)]), wantsResult: false), .param, "A9")
        // §9: synchronizable ThisDeviceOnly is accepted; Any in an add is ignored (A13′).
        expect(engine.add(Self.password(["sync": Self.yes, "pdmn": .string("aku")]), wantsResult: false), .success, "A1")
        expect(engine.copyMatching(Self.query(["sync": Self.yes, "pdmn": .string("aku")]), wantsResult: false), .success, "Q12")
        expect(engine.add(Self.password(["acct": .string("any"), "sync": .string("syna")]), wantsResult: false), .success, "A1")
        expect(engine.copyMatching(Self.query(["acct": .string("any")]), wantsResult: false), .success, "Q12")
    }

    @Test func a11PasscodeBoundItems() {
        var engine = KeychainEngine(device: DeviceState(passcodeSet: false, biometry: .notEnrolled))
        expect(engine.add(Self.password(["pdmn": .string("akpu")]), wantsResult: false), .notAvailable, "A11")
        engine = KeychainEngine()
        _ = engine.add(Self.password(["pdmn": .string("akpu")]), wantsResult: false)
        engine.apply(.passcodeRemoved)
        // §9: the akpu items are deleted with the passcode.
        #expect(engine.itemCount == 0)
        #expect(engine.calls.last?.rule == .rule(.a11))
        expect(engine.copyMatching(Self.query(), wantsResult: false), .itemNotFound, "Q11")
        engine.apply(.passcodeSet)
        expect(engine.copyMatching(Self.query(), wantsResult: false), .itemNotFound, "Q11")
        expect(engine.delete(Self.query()), .itemNotFound, "D3")
        expect(engine.add(Self.password(["pdmn": .string("akpu")]), wantsResult: false), .success, "A1")
    }

    @Test func a12AuthenticationUIValues() {
        var engine = KeychainEngine()
        // §9: a Boolean is stripped and runs as Allow.
        _ = engine.add(Self.password(["u_AuthUI": Self.yes]), wantsResult: false)
        expect(engine.copyMatching(Self.query(["u_AuthUI": Self.yes]), wantsResult: false), .success, "Q12")
        expect(engine.add(Self.password(["u_AuthUI": .string("u_AuthUIS")]), wantsResult: false), .param, "A12")
        expect(engine.delete(Self.query(["u_AuthUI": .string("u_AuthUIS")])), .param, "A12")
        expect(engine.update(Self.query(["u_AuthUI": .string("u_AuthUIS")]), ["labl": .string("x")]), .param, "A12")
    }

    @Test func a13DatesAndU5AccessibilityUpdates() {
        var engine = KeychainEngine(now: 100)
        _ = engine.add(Self.password(), wantsResult: false)
        expect(engine.update(Self.query(), ["pdmn": .string("ck")]), .success, "U1")
        let read = engine.copyMatching(Self.query(["pdmn": .string("ck"), "r_Attributes": Self.yes]), wantsResult: true)
        guard case .dictionary(let attributes)? = read.result, case .date(let modified)? = attributes["mdat"] else {
            return fail("\(read.explanation)")
        }
        #expect(attributes["cdat"] == .date(100) && modified > 100)
    }

    @Test func u1UpdateChangesEveryMatchAndRefusesMatchAndReturnKeys() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        _ = engine.add(Self.password(["acct": .string("b")]), wantsResult: false)
        expect(engine.update(["class": .string("genp")], ["labl": .string("both")]), .success, "U1")
        let labelled = engine.copyMatching(
            [
                "class": .string("genp"), "labl": .string("both"), "m_Limit": .string("m_LimitAll"),
                "r_Attributes": Self.yes,
            ], wantsResult: true)
        guard case .array(let all)? = labelled.result else { return fail("\(labelled.explanation)") }
        #expect(all.count == 2)
        expect(engine.update(Self.query(["m_Limit": .string("m_LimitOne")]), ["labl": .string("x")]), .param, "U1")
        expect(engine.update(Self.query(["r_Data": Self.yes]), ["labl": .string("x")]), .param, "U1")
    }

    @Test func u2OnlyAttributesAndDataCanBeUpdated() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        expect(engine.update(Self.query(), ["class": .string("genp")]), .noSuchAttr, "U2")
        expect(engine.update(Self.query(), ["m_Limit": .string("m_LimitAll")]), .noSuchAttr, "U2")
        expect(engine.update(Self.query(), ["v_Data": .string("text")]), .param, "U2")
    }

    @Test func u3UpdateOntoAnotherPrimaryKeyCollides() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        _ = engine.add(Self.password(["acct": .string("b")]), wantsResult: false)
        expect(engine.update(Self.query(["acct": .string("b")]), ["acct": .string("a")]), .duplicateItem, "U3")
        expect(engine.update(["class": .string("genp")], ["acct": .string("same")]), .duplicateItem, "U3")
    }

    @Test func u4NothingMatchedAndUnentitledGroups() {
        var engine = KeychainEngine()
        expect(engine.update(Self.query(), ["labl": .string("x")]), .itemNotFound, "U4")
        _ = engine.add(Self.password(), wantsResult: false)
        expect(engine.update(Self.query(), ["agrp": .string("X.foreign")]), .missingEntitlement, "U4")
    }

    /// U6 as amended (§9): every update of a protected item authenticates, against the old access control.
    @Test func u6EveryUpdateOfAProtectedItemAuthenticates() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["accc": control(&engine, .biometryAny)]), wantsResult: false)
        engine.answers = [.biometryMatch]
        expect(engine.update(Self.query(), ["labl": .string("renamed")]), .success, "U1")
        #expect(engine.prompts.count == 1)
        engine.answers = [.cancel]
        expect(engine.update(Self.query(), ["v_Data": .data([4])]), .userCanceled, "AC10")
        engine.answers = [.passcode]
        let presence = control(&engine, .userPresence)
        expect(engine.update(Self.query(), ["accc": presence]), .authFailed, "AC10")
        engine.answers = [.biometryMatch]
        expect(engine.update(Self.query(), ["accc": presence]), .success, "U1")
        engine.answers = [.passcode]
        expect(engine.update(Self.query(), ["labl": .string("under the new control")]), .success, "U1")
        #expect(engine.prompts.count == 5)
    }

    @Test func d1DeleteRemovesEveryMatchAndRefusesMatchKeys() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(), wantsResult: false)
        _ = engine.add(Self.password(["acct": .string("b")]), wantsResult: false)
        expect(engine.delete(["class": .string("genp"), "m_Limit": .string("m_LimitAll")]), .param, "D1")
        expect(engine.delete(["class": .string("genp"), "r_Data": Self.yes]), .success, "D1")
        #expect(engine.itemCount == 0)
        expect(engine.delete(["class": .string("genp")]), .itemNotFound, "D3")
    }

    @Test func d4DeleteNeverPrompts() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["accc": control(&engine, .biometryCurrentSet)]), wantsResult: false)
        expect(engine.delete(Self.query()), .success, "D1")
        #expect(engine.prompts.isEmpty)
    }

    // MARK: Keys

    static let secureEnclaveKey: Dict = [
        "type": .string("73"), "bsiz": .number(256), "tkid": .string("com.apple.setoken"),
        "private": .dictionary(["atag": .string("com.example.key")]),
    ]

    @Test func k1SecureEnclaveKeysArePermanentByDefaultAndP2TwoCoexist() {
        var engine = KeychainEngine()
        guard case .success = engine.createRandomKey(Self.secureEnclaveKey), case .success = engine.createRandomKey(Self.secureEnclaveKey)
        else {
            return fail("key creation failed")
        }
        let both = engine.copyMatching(
            [
                "class": .string("keys"), "atag": .string("com.example.key"), "m_Limit": .string("m_LimitAll"),
                "r_Ref": Self.yes,
            ], wantsResult: true)
        guard case .array(let keys)? = both.result else { return fail("\(both.explanation)") }
        #expect(keys.count == 2)
        guard case .success = engine.createRandomKey(["type": .number(73), "bsiz": .number(256), "atag": .string("soft")]) else {
            return fail("software key refused")
        }
        expect(engine.copyMatching(["class": .string("keys"), "atag": .string("soft")], wantsResult: false), .itemNotFound, "Q11")
    }

    @Test func k2AndK3KeyShapes() {
        var engine = KeychainEngine()
        guard case .success(let key) = engine.createRandomKey(Self.secureEnclaveKey) else { return fail("refused") }
        if case .success = engine.externalRepresentation(of: key) { Issue.record("a Secure Enclave private key exported") }
        guard let publicKey = engine.publicKey(of: key), case .success(let bytes) = engine.externalRepresentation(of: publicKey) else {
            return fail("no public key")
        }
        #expect(bytes.count == 65 && bytes.first == 4)
        guard case .success(let signature) = engine.sign(key: key, algorithm: KeyAlgorithm.messageX962SHA256.rawValue, data: [1, 2, 3])
        else {
            return fail("signing failed")
        }
        #expect(
            engine.verify(key: publicKey, algorithm: KeyAlgorithm.messageX962SHA256.rawValue, data: [1, 2, 3], signature: signature)
                == .success(true))
        #expect(
            engine.verify(key: publicKey, algorithm: KeyAlgorithm.messageX962SHA256.rawValue, data: [1, 2, 4], signature: signature)
                != .success(true))
        var big = Self.secureEnclaveKey
        big["bsiz"] = .number(384)
        if case .failure(let failure) = engine.createRandomKey(big) {
            #expect(failure.status == .param && failure.rule == .rule(.k2))
        } else {
            Issue.record("a 384-bit Secure Enclave key was made")
        }
        if case .failure(let failure) = engine.createRandomKey(["bsiz": .number(256)]) {
            #expect(failure.rule == .rule(.k3))
        } else {
            Issue.record("a key without a type was made")
        }
    }

    @Test func k4SecureEnclaveKeysHandOnLocalAuthenticationErrors() {
        var engine = KeychainEngine()
        var parameters = Self.secureEnclaveKey
        parameters["private"] = .dictionary(["atag": .string("t"), "accc": control(&engine, [.biometryAny, .privateKeyUsage], "aku")])
        guard case .success(let key) = engine.createRandomKey(parameters) else { return fail("refused") }
        engine.answers = [.cancel]
        guard case .failure(let failure) = engine.sign(key: key, algorithm: KeyAlgorithm.messageX962SHA256.rawValue, data: [1]) else {
            return fail("signed without the user")
        }
        #expect(failure.domain == "com.apple.LocalAuthentication" && failure.code == -2 && failure.rule == .rule(.k4))
    }

    // MARK: §5 access control

    @Test func ac1CreationNeverLooksAtTheDevice() {
        var engine = KeychainEngine(device: DeviceState(biometry: .notEnrolled))
        let control = control(&engine, .biometryAny)
        expect(engine.add(Self.password(["accc": control]), wantsResult: false), .authFailed, "AC5")
        guard
            case .failure(let failure) = engine.createAccessControl(
                protection: .string("ak"), flags: UInt64(AccessControlFlags([.or, .and]).rawValue))
        else { return fail("or with and accepted") }
        #expect(failure.status == .param && failure.rule == .rule(.ac1))
        guard case .failure = engine.createAccessControl(protection: .string("nope"), flags: 0) else { return fail("bad protection") }
    }

    @Test func ac2OrAndWithoutConstraintsAreLegal() {
        var engine = KeychainEngine()
        guard case .success = engine.createAccessControl(protection: .string("ak"), flags: UInt64(AccessControlFlags.or.rawValue)) else {
            return fail(".or alone refused")
        }
    }

    @Test func ac4PrivateKeyUsageOnAPasswordFails() {
        var engine = KeychainEngine()
        expect(engine.add(Self.password(["accc": control(&engine, .privateKeyUsage)]), wantsResult: false), .authFailed, "AC4")
    }

    @Test func ac6CurrentSetItemsFailAfterAnEnrolmentChange() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["accc": control(&engine, .biometryCurrentSet)]), wantsResult: false)
        engine.apply(.biometryEnrollmentChanged)
        expect(engine.copyMatching(Self.query(["r_Data": Self.yes]), wantsResult: true), .authFailed, "AC6")
        #expect(engine.prompts.isEmpty)
        expect(engine.delete(Self.query()), .success, "D1")
    }

    @Test func ac7FailAndSkip() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["accc": control(&engine, .userPresence)]), wantsResult: false)
        expect(
            engine.copyMatching(Self.query(["r_Data": Self.yes, "u_AuthUI": .string("u_AuthUIF")]), wantsResult: true),
            .interactionNotAllowed, "AC7")
        let skip = engine.copyMatching(Self.query(["r_Data": Self.yes, "u_AuthUI": .string("u_AuthUIS")]), wantsResult: true)
        expect(skip, .itemNotFound, "AC7")
        // §9 (AC7, Apple's device test): an existence probe needs the prompt too.
        expect(engine.copyMatching(Self.query(["u_AuthUI": .string("u_AuthUIS")]), wantsResult: false), .itemNotFound, "AC7")
        expect(engine.copyMatching(Self.query(["u_AuthUI": .string("u_AuthUIF")]), wantsResult: false), .interactionNotAllowed, "AC7")
        #expect(engine.prompts.isEmpty)
    }

    @Test func ac8ContextReuseAndAC10Cancel() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["accc": control(&engine, .biometryAny)]), wantsResult: false)
        let context = engine.newContext()
        engine.answers = [.biometryMatch]
        let read = Self.query(["r_Data": Self.yes, "u_AuthCtx": .context(context)])
        #expect(engine.copyMatching(read, wantsResult: true).prompts == 1)
        #expect(engine.copyMatching(read, wantsResult: true).prompts == 0)
        engine.answers = [.cancel]
        let fresh = engine.copyMatching(Self.query(["r_Data": Self.yes]), wantsResult: true)
        expect(fresh, .userCanceled, "AC10")
        engine.invalidate(context: context)
        expect(engine.copyMatching(read, wantsResult: true), .authFailed, "AC10")
    }

    @Test func ac8OneCallWithoutAContextPromptsOnceForAllItsMatches() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["accc": control(&engine, .userPresence)]), wantsResult: false)
        _ = engine.add(Self.password(["acct": .string("b"), "accc": control(&engine, .userPresence)]), wantsResult: false)
        engine.answers = [.biometryMatch, .biometryMatch]
        let all = engine.copyMatching(["class": .string("genp"), "m_Limit": .string("m_LimitAll"), "r_Data": Self.yes], wantsResult: true)
        #expect(all.status == .success && all.prompts == 1, "\(all.explanation)")
        #expect(engine.copyMatching(Self.query(["r_Data": Self.yes]), wantsResult: true).prompts == 1, "the call's own context is gone")
    }

    @Test func strictDefaultNamesTheCall() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["accc": control(&engine, .userPresence)]), wantsResult: false)
        let read = engine.copyMatching(Self.query(["r_Data": Self.yes]), wantsResult: true)
        #expect(read.status == .userCanceled && read.reason.contains("no answer was queued"))
        #expect(engine.prompts.first?.answer == nil && engine.prompts.first?.call == "SecItemCopyMatching")
    }

    // MARK: LAContext

    @Test func la1And2CanEvaluateNeverPromptsAndNamesTheObstacle() {
        var engine = KeychainEngine(device: DeviceState(biometry: .notEnrolled))
        let context = engine.newContext()
        #expect(engine.canEvaluatePolicy(context: context, policy: 1).code == .biometryNotEnrolled)
        #expect(engine.canEvaluatePolicy(context: context, policy: 2).succeeded)
        #expect(engine.prompts.isEmpty)
        engine = KeychainEngine(device: DeviceState(passcodeSet: false, biometry: .notEnrolled))
        let other = engine.newContext()
        #expect(engine.canEvaluatePolicy(context: other, policy: 2).code == .passcodeNotSet)
    }

    @Test func la3CompanionPolicies() {
        var engine = KeychainEngine()
        let context = engine.newContext()
        #expect(engine.canEvaluatePolicy(context: context, policy: 3).code == .companionNotAvailable)
        #expect(engine.canEvaluatePolicy(context: context, policy: 4).succeeded)
    }

    @Test func la4DomainStateFollowsTheEnrolledSet() {
        var engine = KeychainEngine()
        let context = engine.newContext()
        #expect(engine.evaluatedPolicyDomainState(context: context) == nil)
        _ = engine.canEvaluatePolicy(context: context, policy: 1)
        let before = engine.evaluatedPolicyDomainState(context: context)
        #expect(before != nil)
        engine.apply(.biometryEnrollmentChanged)
        let later = engine.newContext()
        _ = engine.canEvaluatePolicy(context: later, policy: 1)
        #expect(engine.evaluatedPolicyDomainState(context: later) != before)
    }

    @Test func la5ReuseDurationCoversARecentBiometricUnlock() {
        var engine = KeychainEngine(now: 1000)
        engine.apply(.lock)
        engine.apply(.unlock)
        engine.now += 20
        let context = engine.newContext()
        var settings = engine.settings(of: context)
        settings.allowableReuseDuration = 900
        engine.setSettings(settings, of: context)
        #expect(engine.settings(of: context).allowableReuseDuration == 300)
        let outcome = engine.evaluatePolicy(context: context, policy: 1, reason: "Sign in")
        #expect(outcome.succeeded && outcome.prompts == 0 && outcome.rule == .rule(.la5))
        engine.now += 400
        let late = engine.newContext()
        engine.setSettings(settings, of: late)
        engine.answers = [.biometryMatch]
        #expect(engine.evaluatePolicy(context: late, policy: 1, reason: "Sign in").prompts == 1)
    }

    @Test func la6ContextsStaySatisfiedUntilInvalidatedAndLA7() {
        var engine = KeychainEngine()
        let context = engine.newContext()
        engine.answers = [.biometryMatch]
        #expect(engine.evaluatePolicy(context: context, policy: 1, reason: "r").prompts == 1)
        let again = engine.evaluatePolicy(context: context, policy: 1, reason: "r")
        #expect(again.succeeded && again.prompts == 0 && again.rule == .rule(.la6))
        engine.invalidate(context: context)
        engine.invalidate(context: context)
        #expect(engine.evaluatePolicy(context: context, policy: 1, reason: "r").code == .invalidContext)
    }

    @Test func la8AndLA9() {
        var engine = KeychainEngine()
        let context = engine.newContext()
        var settings = ContextSettings()
        settings.interactionNotAllowed = true
        engine.setSettings(settings, of: context)
        #expect(engine.evaluatePolicy(context: context, policy: 2, reason: "r").code == .notInteractive)
        let other = engine.newContext()
        let empty = engine.evaluatePolicy(context: other, policy: 2, reason: "")
        #expect(empty.rule == .rule(.la9) && empty.prompts == 0 && engine.wouldCrashOnDevice.count == 1)
    }

    @Test func fallbackEndsABiometricEvaluation() {
        var engine = KeychainEngine()
        let context = engine.newContext()
        engine.answers = [.fallback]
        #expect(engine.evaluatePolicy(context: context, policy: 1, reason: "r").code == .userFallback)
        engine.answers = [.fallback, .passcode]
        #expect(engine.evaluatePolicy(context: context, policy: 2, reason: "r").succeeded)
    }

    @Test func everyCallIsLoggedWithItsRule() {
        var engine = KeychainEngine()
        _ = engine.add(Self.password(["pdmn": .string("ck")]), wantsResult: false)
        _ = engine.copyMatching(Self.query(["pdmn": .string("ak")]), wantsResult: false)
        #expect(engine.calls.map(\.call) == ["SecItemAdd", "SecItemCopyMatching"])
        #expect(
            engine.calls.last?.line
                == "SecItemCopyMatching → -25300: Q4: the query's kSecAttrAccessible ak filters out the item stored as ck")
    }
}
