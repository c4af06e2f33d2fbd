import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's secd-81-item-acl.m as it compiles at the pinned commit: `LA_CONTEXT_IMPLEMENTED` is defined nowhere in
/// Apple's tree, so the file's `#else` branch runs, `plan_tests(3)` with `item_with_skip_auth_ui` alone (on iOS as
/// on every platform). The `plan_tests(78)` under `TARGET_OS_IPHONE` sits inside the `LA_CONTEXT_IMPLEMENTED`
/// branch, and there every other scenario is also behind `HAS_LA_SET_ERROR`, which the file sets to 0.
///
/// The scenario: an internet password (item 1 of Apple's numbering, its primary-key attributes made from 1, in the
/// group `com.apple.security.sos`) with a `…WhenPasscodeSetThisDeviceOnly` + `.devicePasscode` access control, and
/// `kSecUseAuthenticationUISkip` in the dictionary: Skip is refused on add and on delete (-50).
/// The in-process client of Apple's secd tests holds `com.apple.security.sos` (client.c, `SecServerCopyAccessGroups`).
@Suite struct SecD81ItemACL {
    @Test func skipAuthenticationUIIsRefusedOnAddAndDelete() {
        let environment = [Simulation.Environment.accessGroups: "com.apple.security.sos"]
        Simulation.withNew(environment: environment) {
            let t = AppleFile("secd-81-item-acl.m", plan: 3)
            var item = Self.item(1)
            let access = SecAccessControlCreateWithFlags(
                kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .devicePasscode, nil)
            t.ok(access != nil, line: 480, "make a passcode access control")
            if let access { item[kSecAttrAccessControl as String] = access }
            item[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUISkip
            t.is(SecItemAdd(item as CFDictionary, nil), errSecParam, line: 484, "Skip in an add is refused")
            t.is(SecItemDelete(item as CFDictionary), errSecParam, line: 485, "Skip in a delete is refused")
            t.finish()
        }
    }

    /// An internet password whose primary-key attributes are made from `num`: strings `acl-stress-string-N`,
    /// numbers N, synchronizable for even N; the group `com.apple.security.sos` for odd N (none for even);
    /// the data "some data".
    static func item(_ num: Int) -> [String: Any] {
        let string = "acl-stress-string-\(num)"
        let number = NSNumber(value: Int32(num))
        var item: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword,
            kSecAttrAccount as String: string,
            kSecAttrSecurityDomain as String: string,
            kSecAttrServer as String: string,
            kSecAttrProtocol as String: number,
            kSecAttrAuthenticationType as String: number,
            kSecAttrPort as String: number,
            kSecAttrPath as String: string,
            kSecAttrSynchronizable as String: num % 2 == 0,
            kSecValueData as String: Data("some data".utf8),
        ]
        if num % 2 == 1 { item[kSecAttrAccessGroup as String] = "com.apple.security.sos" }
        return item
    }
}
