import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's secd-01-items.m (the `USE_KEYSTORE` branch): an internet password is added and found while the device
/// keybag is locked and unlocked in turn; a locked class answers -25308 to an add (even a duplicate one) and to a find.
///
/// Apple drives a test keybag through AppleKeyStore SPI (`aks_create_bag`, `aks_lock_bag`, `aks_unlock_bag`,
/// `aks_get_lock_state`, `SecItemServerSetKeychainKeybag`); here the keybag is the simulated device (passcode set,
/// unlocked), locked and unlocked with `Simulation.current.apply(.lock / .unlock)`. A lock or unlock call's success
/// is the status the simulation records for that device event, and the keybag's lock bit is `device.locked`.
/// `aks_get_lock_state`'s own status has no counterpart (reading `device` cannot fail), nor have the keybag's save,
/// unload and invalidation at the end: those are skipped. The plan counts `kSecdTestSetupTestCount`, which is 1
/// (SecdTestKeychainUtilities.h): the one `ok` of `secd_test_setup_temp_keychain` (SecdTestKeychainUtilities.m:54,
/// the temporary keychain directory is made), ported at its call site, line 47, as the fresh simulation's empty keychain.
@Suite struct SecD01Items {
    static let getStateSkip = "aks_get_lock_state's status (SPI): reading Simulation.current.device cannot fail"

    @Test func addAndFindWhileLockedAndUnlocked() {
        Simulation.withNew {
            let t = AppleFile("secd-01-items.m", plan: 27 + 1)
            let simulation = Simulation.current
            t.ok(simulation.itemCount == 0, line: 47, "a new, empty keychain for the test (the temp keychain's setup ok)")

            // The device keybag, made with a passcode and unlocked.
            t.ok(simulation.device.passcodeSet, line: 55, "the device keybag is made with a passcode")
            t.skip(1, line: 56, Self.getStateSkip)
            t.ok(!simulation.device.locked, line: 57, "the keybag is unlocked")

            t.ok(Self.event(.lock), line: 61, "lock the keybag")
            t.skip(1, line: 62, Self.getStateSkip)
            t.ok(simulation.device.locked, line: 63, "the keybag is locked")

            let item: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrServer as String: "members.spamcop.net",
                kSecAttrAccount as String: "smith",
                kSecAttrPort as String: NSNumber(value: Int32(80)),
                kSecAttrProtocol as String: kSecAttrProtocolHTTP,
                kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeDefault,
                kSecReturnData as String: true,
                kSecValueData as String: Data("test".utf8),
            ]
            t.is(SecItemAdd(item as CFDictionary, nil), errSecInteractionNotAllowed, line: 98, "adding while locked is refused")

            t.ok(Self.event(.unlock), line: 101, "unlock the keybag with its passcode")
            t.skip(1, line: 102, Self.getStateSkip)
            t.ok(!simulation.device.locked, line: 103, "the keybag is unlocked")

            t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 105, "adding while unlocked succeeds")

            t.ok(Self.event(.lock), line: 109, "lock the keybag")
            t.skip(1, line: 110, Self.getStateSkip)
            t.ok(simulation.device.locked, line: 111, "the keybag is locked")

            t.is(
                SecItemAdd(item as CFDictionary, nil), errSecInteractionNotAllowed, line: 113,
                "adding the same item while locked: the locked class answers before the duplicate")

            t.ok(Self.event(.unlock), line: 117, "unlock the keybag with its passcode")
            t.skip(1, line: 118, Self.getStateSkip)
            t.ok(!simulation.device.locked, line: 119, "the keybag is unlocked")

            t.is(SecItemAdd(item as CFDictionary, nil), errSecDuplicateItem, line: 121, "adding it again while unlocked: a duplicate")

            // Every attribute of the add except the data.
            var query = item
            query.removeValue(forKey: kSecValueData as String)
            var result: CFTypeRef?
            t.okStatus(SecItemCopyMatching(query as CFDictionary, &result), line: 128, "find the password while unlocked")
            result = nil

            t.ok(Self.event(.lock), line: 135, "lock the keybag")
            t.skip(1, line: 136, Self.getStateSkip)
            t.ok(simulation.device.locked, line: 137, "the keybag is locked")

            t.is(
                SecItemCopyMatching(query as CFDictionary, &result), errSecInteractionNotAllowed, line: 139,
                "finding the password while locked is refused")

            t.skip(
                3, line: 146,
                "aks_save_bag, aks_unload_bag and aks_invalidate_bag (SPI): the simulated keybag ends with Simulation.withNew")
            t.finish()
        }
    }

    /// Applies `event` to the device; true when the simulation recorded it with status 0 (the keybag call's success).
    static func event(_ event: DeviceEvent) -> Bool {
        let simulation = Simulation.current
        simulation.apply(event)
        guard let last = simulation.calls.last else { return false }
        return last.call == "device.\(event.rawValue)" && last.status == 0
    }
}
