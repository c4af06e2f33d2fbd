import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's secacltests/sec_acl_stress.c, the iOS device branch (`TARGET_OS_IPHONE && !TARGET_OS_SIMULATOR`): eight
/// items (two of each of inet, genp, keys and cert, primary-key attributes made from the item's number, six
/// protection classes in turn) are added, found and deleted under access controls; synchronizable, `privateKeyUsage`
/// and `kSecUseAuthenticationUISkip` items are refused. Apple's `main` sets a temporary passcode when the device has
/// none (`MKBKeyBagChangeSystemSecret`, SPI) and then runs `tests(isPasscodeSet)` with `plan_tests(288)` if that
/// worked, `plan_tests(168)` otherwise (the device already had a passcode, or setting one failed). Both branches are
/// ported, each with its own file record: the passcode set by the test (`apply(.passcodeSet)` on a device with
/// none, removed again at the end), and a device without a passcode.
///
/// Mappings. The test's own access control is built with SecAccessControlPriv.h SPI (`SecAccessControlCreate`,
/// `SecAccessControlSetProtection`, `SecAccessControlAddConstraintForOperation` with decrypt, delete and encrypt
/// true): here `SecAccessControlCreateWithFlags(protection, [])`, which makes the same protection with an allow-all
/// default entry (`dacl: true`, Apple's SecAccessControl.m), so no operation is constrained in either; its creation
/// is line 224, and the three SPI steps after it are skipped. The invalid access control (an unknown policy,
/// `SecAccessConstraintCreatePolicy`) has no public counterpart: its four steps and the add and find that use it are
/// skipped. `kSecAttrAccessibleAlwaysPrivate` and `…AlwaysThisDeviceOnlyPrivate` are the SPI spellings of
/// `kSecAttrAccessibleAlways` (`dk`) and `…AlwaysThisDeviceOnly` (`dku`). The passcode changes are device events.
/// The app is Apple's test binary: `com.apple.security.regressions`, entitled to `com.apple.security.sos`
/// (secacltests-entitlements.plist).
///
/// Rule book §10: lines 259 and 266 (`privateKeyUsage` refused -25293 on every class, kSecClassKey included) rest
/// on AC4′; line 299 (deleting a `…WhenPasscodeSet…` item after the passcode is removed answers 0) on A11′.
@Suite struct SecACLStress {
    static let environment = [
        Simulation.Environment.appIdentifier: "com.apple.security.regressions",
        Simulation.Environment.accessGroups: "com.apple.security.sos",
        Simulation.Environment.passcode: "0",
    ]

    @Test func passcodeSetByTheTest() {
        Simulation.withNew(environment: Self.environment) {
            let t = AppleFile("sec_acl_stress.c (passcode set by the test)", plan: 288)
            // The device has no passcode; the test sets a temporary one (line 322) and removes it at the end (line 330).
            Simulation.current.apply(.passcodeSet)
            Self.tests(t, isPasscodeSet: true)
            Simulation.current.apply(.passcodeRemoved)
            t.finish()
        }
    }

    @Test func noPasscodeSetByTheTest() {
        Simulation.withNew(environment: Self.environment) {
            let t = AppleFile("sec_acl_stress.c (no passcode)", plan: 168)
            Self.tests(t, isPasscodeSet: false)
            t.finish()
        }
    }

    /// The protection classes items take in turn (`num % 6`).
    static let protections: [CFString] = [
        kSecAttrAccessibleWhenUnlocked,
        kSecAttrAccessibleAfterFirstUnlock,
        kSecAttrAccessibleAlways,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        kSecAttrAccessibleAlwaysThisDeviceOnly,
    ]

    static func tests(_ t: AppleFile, isPasscodeSet: Bool) {
        let ac = kSecAttrAccessControl as String
        let ui = kSecUseAuthenticationUI as String
        let sync = kSecAttrSynchronizable as String
        for num in 0..<8 {
            let protection = protections[num % protections.count]
            var item = Self.item(num)
            let n = "item \(num)"

            let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, protection, [], nil)
            t.ok(access != nil, line: 224, "\(n): make an access control with no constraint (CreateWithFlags, no flags)")
            t.skip(
                4, line: 225,
                "\(n): SecAccessControlSetProtection and AddConstraintForOperation (decrypt, delete, encrypt true) are SPI; "
                    + "CreateWithFlags with no flags sets the protection and an allow-all entry")
            t.skip(
                4, line: 231,
                "\(n): the invalid access control (SecAccessControlCreate, SetProtection, SecAccessConstraintCreatePolicy with "
                    + "an unknown policy, AddConstraintForOperation) is SPI with no public counterpart")
            t.skip(2, line: 240, "\(n): the add refused -50 for the invalid access control, and the find after it, need that SPI object")

            item[sync] = false
            item[ac] = access
            t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 244, "\(n): add it locally")
            t.okStatus(SecItemCopyMatching(item as CFDictionary, nil), line: 245, "\(n): find it")
            t.okStatus(SecItemDelete(item as CFDictionary), line: 246, "\(n): delete it")
            t.is(SecItemCopyMatching(item as CFDictionary, nil), errSecItemNotFound, line: 247, "\(n): it is gone")

            item[sync] = true
            t.is(SecItemAdd(item as CFDictionary, nil), errSecParam, line: 250, "\(n): an access control cannot be synchronizable")
            t.is(SecItemCopyMatching(item as CFDictionary, nil), errSecItemNotFound, line: 251, "\(n): no synchronizable copy")
            item[sync] = false

            let keyUsage = SecAccessControlCreateWithFlags(kCFAllocatorDefault, protection, .privateKeyUsage, nil)
            t.ok(keyUsage != nil, line: 257, "\(n): make a privateKeyUsage access control")
            item[ac] = keyUsage
            t.is(
                SecItemAdd(item as CFDictionary, nil), errSecAuthFailed, line: 259,
                "\(n): privateKeyUsage alone cannot protect a stored item (AC4′)")

            if isPasscodeSet {
                passcodeBranch(t, &item, protection: protection, n)
            }

            item[ui] = kSecUseAuthenticationUISkip
            t.is(SecItemAdd(item as CFDictionary, nil), errSecParam, line: 306, "\(n): Skip in an add is refused")
            t.is(SecItemDelete(item as CFDictionary), errSecParam, line: 307, "\(n): Skip in a delete is refused")
        }
    }

    /// Lines 262–302: what Apple runs only when the test set the passcode itself.
    static func passcodeBranch(_ t: AppleFile, _ item: inout [String: Any], protection: CFString, _ n: String) {
        let ac = kSecAttrAccessControl as String
        let ui = kSecUseAuthenticationUI as String

        let keyUsage = SecAccessControlCreateWithFlags(kCFAllocatorDefault, protection, [.devicePasscode, .privateKeyUsage], nil)
        t.ok(keyUsage != nil, line: 264, "\(n): make a passcode + privateKeyUsage access control")
        item[ac] = keyUsage
        t.is(
            SecItemAdd(item as CFDictionary, nil), errSecAuthFailed, line: 266,
            "\(n): privateKeyUsage with a constraint cannot protect a stored item either (AC4′)")

        let presence = SecAccessControlCreateWithFlags(kCFAllocatorDefault, protection, .userPresence, nil)
        t.ok(presence != nil, line: 269, "\(n): make a user-presence access control")
        item[ac] = presence
        t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 275, "\(n): add it under user presence")
        item[ui] = kSecUseAuthenticationUIFail
        t.is(
            SecItemCopyMatching(item as CFDictionary, nil), errSecInteractionNotAllowed, line: 277,
            "\(n): finding it under UIFail needs the prompt it may not show")
        item[ui] = kSecUseAuthenticationUISkip
        t.is(SecItemCopyMatching(item as CFDictionary, nil), errSecItemNotFound, line: 279, "\(n): under UISkip it is passed over")
        item[ui] = kSecUseAuthenticationUIAllow
        t.okStatus(SecItemDelete(item as CFDictionary), line: 281, "\(n): deleting it needs no authentication")
        t.is(SecItemCopyMatching(item as CFDictionary, nil), errSecItemNotFound, line: 282, "\(n): it is gone")

        item[ui] = kSecUseAuthenticationUIFail
        t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 285, "\(n): add it again, UIFail in the add")
        t.is(
            SecItemCopyMatching(item as CFDictionary, nil), errSecInteractionNotAllowed, line: 286,
            "\(n): finding it under UIFail is refused")
        t.okStatus(SecItemDelete(item as CFDictionary), line: 287, "\(n): deleting it under UIFail succeeds")
        t.is(SecItemCopyMatching(item as CFDictionary, nil), errSecItemNotFound, line: 288, "\(n): it is gone")
        item[ui] = kSecUseAuthenticationUIAllow

        let whenPasscodeSet = SecAccessControlCreateWithFlags(
            kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .userPresence, nil)
        t.ok(whenPasscodeSet != nil, line: 294, "\(n): make a WhenPasscodeSet user-presence access control")
        item[ac] = whenPasscodeSet
        t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 297, "\(n): add it WhenPasscodeSet")
        Simulation.current.apply(.passcodeRemoved)
        t.okStatus(
            SecItemDelete(item as CFDictionary), line: 299,
            "\(n): deleting it after the passcode is removed succeeds (A11′)")
        Simulation.current.apply(.passcodeSet)
    }

    /// Item `num`: its class by `num % 4`, each primary-key attribute of the class with a value made from `num`
    /// (strings `acl-stress-string-N`, data `acl-stress-data-N`, numbers N, synchronizable for even N), the group
    /// `com.apple.security.sos` for odd N (none for even N), no dates, no data. (Apple formats the data into a
    /// 10-byte buffer, which truncates it, and passes the untruncated length, reading past the buffer; the port
    /// uses the intended value: only its staying the same within an item's round matters.)
    static func item(_ num: Int) -> [String: Any] {
        let string = "acl-stress-string-\(num)"
        let data = Data("acl-stress-data-\(num)".utf8)
        let number = NSNumber(value: Int32(num))
        let flag = num % 2 == 0
        var item: [String: Any]
        switch num % 4 {
        case 0:
            item = [
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrAccount as String: string,
                kSecAttrSecurityDomain as String: string,
                kSecAttrServer as String: string,
                kSecAttrProtocol as String: number,
                kSecAttrAuthenticationType as String: number,
                kSecAttrPort as String: number,
                kSecAttrPath as String: string,
            ]
        case 1:
            item = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccount as String: string,
                kSecAttrService as String: string,
            ]
        case 2:
            item = [
                kSecClass as String: kSecClassKey,
                kSecAttrKeyClass as String: string,
                kSecAttrApplicationLabel as String: data,
                kSecAttrApplicationTag as String: data,
                kSecAttrKeyType as String: number,
                kSecAttrKeySizeInBits as String: number,
                kSecAttrEffectiveKeySize as String: number,
            ]
        default:
            item = [
                kSecClass as String: kSecClassCertificate,
                kSecAttrCertificateType as String: number,
                kSecAttrIssuer as String: data,
                kSecAttrSerialNumber as String: data,
            ]
        }
        item[kSecAttrSynchronizable as String] = flag
        if num % 2 == 1 { item[kSecAttrAccessGroup as String] = "com.apple.security.sos" }
        return item
    }
}
