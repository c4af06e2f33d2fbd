import Dispatch
import Foundation
import LocalAuthentication
import Security
import SecuritySimulation
import Testing

/// Each test owns its simulation (`Simulation.withNew`, issue 50), handles
/// die with the simulation they were made in (issue 52, item 2), dropping a
/// handle under the simulation's lock cannot deadlock (issue 48, item 6),
/// and the call log stays bounded (issue 52, item 6). None of these tests
/// uses the shared simulation, so they run in parallel with everything else.
@Suite struct SimulationIsolationTests {
    static func item(_ account: String, data: String? = nil) -> [String: Any] {
        var item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "isolation",
            kSecAttrAccount as String: account,
        ]
        if let data { item[kSecValueData as String] = Data(data.utf8) }
        return item
    }

    static func softwareKey() -> SecKey? {
        let parameters: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]
        return SecKeyCreateRandomKey(parameters as CFDictionary, nil)
    }

    @Test func eachTaskOwnsItsKeychain() async {
        let statuses = await withTaskGroup(of: (OSStatus, Int).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await Simulation.withNew {
                        let status = SecItemAdd(Self.item("same", data: "one") as CFDictionary, nil)
                        // A child task reaches the same simulation.
                        async let seen = Simulation.current.itemCount
                        return (status, await seen)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 8)
        #expect(statuses.allSatisfy { $0 == (errSecSuccess, 1) }, "each simulation has its own keychain: \(statuses)")
        #expect(Simulation.current === Simulation.shared)
    }

    @Test func aCompletionHandlerRunsInTheContextsSimulation() async {
        await Simulation.withNew { () async -> Void in
            let simulation = Simulation.current
            simulation.enqueue(.biometryMatch)
            _ = SecItemAdd(Self.item("handler", data: "s") as CFDictionary, nil)
            let context = LAContext()
            let found: (Bool, OSStatus) = await withCheckedContinuation { continuation in
                context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Sign in") { success, _ in
                    // The reply runs on another queue, inside the context's simulation.
                    continuation.resume(returning: (success, SecItemCopyMatching(Self.item("handler") as CFDictionary, nil)))
                }
            }
            #expect(found.0)
            #expect(found.1 == errSecSuccess, "the reply's SecItem call reached another simulation")
            #expect(simulation.promptCount == 1)
        }
    }

    @Test func aKeyMadeBeforeAResetIsStaleAndTouchesNothing() {
        Simulation.withNew { () -> Void in
            let simulation = Simulation.current
            guard var old = Self.softwareKey() else {
                Issue.record("no key")
                return
            }
            simulation.reset()
            guard let new = Self.softwareKey() else {
                Issue.record("no new key")
                return
            }
            var error: Unmanaged<CFError>?
            let message = Data("m".utf8) as CFData
            #expect(SecKeyCreateSignature(old, .ecdsaSignatureMessageX962SHA256, message, &error) == nil)
            let code = error.map { ($0.takeRetainedValue() as any Error as NSError).code }
            #expect(code == Int(errSecInvalidItemRef), "a stale key answers errSecInvalidItemRef")
            #expect(SecKeyCopyPublicKey(old) == nil)
            // Releasing the stale key does not release the new key the model now holds under the same id.
            old = new
            _ = old
            #expect(SecKeyCreateSignature(new, .ecdsaSignatureMessageX962SHA256, message, nil) != nil)
        }
    }

    /// Rights die with their simulation (issue 61, item 2): before, an
    /// `LAPersistedRight` authorized before a reset still read its secret,
    /// signed and decrypted after it with 0 prompts, and did inside another
    /// `Simulation.withNew` too. Now each of its calls answers
    /// `LAError.invalidContext` and touches nothing: no prompt, no call logged.
    @Test func aRightMadeBeforeAResetIsInvalid() async throws {
        try await Simulation.withNew { () async throws -> Void in
            let simulation = Simulation.current
            simulation.enqueue(.biometryMatch)
            let right = try await LARightStore.shared.saveRight(LARight(), identifier: "vault", secret: Data("s3cret".utf8))
            try await right.authorize(localizedReason: "Open the vault")
            let sealed = try await right.key.publicKey.encrypt(
                Data("m".utf8), algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
            #expect(try await right.secret.rawData == Data("s3cret".utf8))
            let fresh = LARight()
            // Inside another simulation the right is not this simulation's.
            await Simulation.withNew { () async -> Void in
                await #expect(throws: LAError(.invalidContext)) { try await right.secret.rawData }
                await #expect(throws: LAError(.invalidContext)) { try await fresh.checkCanAuthorize() }
                #expect(Simulation.current.promptCount == 0 && Simulation.current.calls.isEmpty)
            }
            simulation.reset()
            simulation.enqueue(.biometryMatch)
            await #expect(throws: LAError(.invalidContext)) { try await right.secret.rawData }
            await #expect(throws: LAError(.invalidContext)) {
                try await right.key.sign(Data("m".utf8), algorithm: .ecdsaSignatureMessageX962SHA256)
            }
            await #expect(throws: LAError(.invalidContext)) {
                try await right.key.decrypt(sealed, algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
            }
            await #expect(throws: LAError(.invalidContext)) { try await right.key.publicKey.bytes }
            await #expect(throws: LAError(.invalidContext)) { try await right.authorize(localizedReason: "Again") }
            await #expect(throws: LAError(.invalidContext)) { try await LARightStore.shared.removeRight(right) }
            await #expect(throws: LAError(.invalidContext)) { _ = try await LARightStore.shared.saveRight(fresh, identifier: "vault") }
            #expect(simulation.promptCount == 0, "a stale right raised a prompt")
            #expect(simulation.calls.isEmpty, "a stale right logged: \(simulation.calls.map(\.line))")
            // A right made after the reset works.
            let now = try await LARightStore.shared.saveRight(LARight(), identifier: "vault", secret: Data("new".utf8))
            try await now.authorize(localizedReason: "Open the vault")
            #expect(try await now.secret.rawData == Data("new".utf8))
        }
    }

    @Test func aContextMadeBeforeAResetIsInvalid() async {
        await Simulation.withNew { () async -> Void in
            let simulation = Simulation.current
            let context = LAContext()
            simulation.enqueue(.biometryMatch)
            #expect((try? await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "r")) == true)
            simulation.reset()
            // The next test's protected item: the old, evaluated context must not open it.
            guard
                let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .biometryAny, nil)
            else {
                Issue.record("no access control")
                return
            }
            var item = Self.item("guarded", data: "secret")
            item[kSecAttrAccessControl as String] = control
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
            var query = Self.item("guarded")
            query[kSecReturnData as String] = true
            query[kSecUseAuthenticationContext as String] = context
            #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecUserCanceled, "no answer queued: the read must prompt")
            #expect(simulation.promptCount == 1)
            do {
                _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "r")
                Issue.record("a stale context evaluated")
            } catch let error as LAError {
                #expect(error.code == .invalidContext)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test(.timeLimit(.minutes(10))) func droppingHandlesUnderTheLockDoesNotDeadlock() {
        Simulation.withNew { () -> Void in
            let simulation = Simulation.current
            var key = Self.softwareKey()
            var context: LAContext? = LAContext()
            #expect(key != nil && context != nil)
            simulation.withEngine { _ in
                // The last references go while the simulation's lock is held.
                key = nil
                context = nil
            }
            #expect(key == nil && context == nil)
            #expect(SecItemAdd(Self.item("after", data: "x") as CFDictionary, nil) == errSecSuccess)
        }
    }

    @Test func theCallLogIsBounded() {
        Simulation.withNew { () -> Void in
            let simulation = Simulation.current
            simulation.callLogLimit = 10
            for index in 0..<500 { _ = SecItemCopyMatching(Self.item("n\(index)") as CFDictionary, nil) }
            #expect(simulation.calls.count == 10)
            #expect(simulation.calls.last?.call == "SecItemCopyMatching")
            #expect(simulation.withEngine { $0.calls.count } <= 20)
        }
    }

    @Test func aDeeplyNestedArrayIsRefusedWithoutBridgingIt() {
        Simulation.withNew { () -> Void in
            var deep = NSArray(object: NSString(string: "leaf"))
            for _ in 0..<20_000 { deep = NSArray(object: deep) }
            let item = NSMutableDictionary()
            item.setObject(kSecClassGenericPassword, forKey: kSecClass)
            item.setObject(deep, forKey: kSecAttrAccount)
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecParam)
            var error: Unmanaged<CFError>?
            #expect(SecAccessControlCreateWithFlags(nil, deep, .userPresence, &error) == nil)
            #expect(error != nil)
            _ = error?.takeRetainedValue()
        }
    }

    @Test func rfc4754TakesTheInputAsTheDigest() {
        Simulation.withNew { () -> Void in
            guard let key = Self.softwareKey(), let publicKey = SecKeyCopyPublicKey(key) else {
                Issue.record("no key")
                return
            }
            let digest = Data(repeating: 7, count: 32) as CFData
            let signature = SecKeyCreateSignature(key, .ecdsaSignatureRFC4754, digest, nil)
            #expect(signature.map { ($0 as Data).count } == 64)
            if let signature {
                #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962SHA256, digest, derSignature(signature), nil))
            }
            var error: Unmanaged<CFError>?
            #expect(SecKeyCreateSignature(key, .ecdsaSignatureRFC4754, Data("short".utf8) as CFData, &error) == nil)
            _ = error?.takeRetainedValue()
        }
    }

    /// An r‖s signature in DER (two positive INTEGERs in a SEQUENCE).
    func derSignature(_ raw: CFData) -> CFData {
        let bytes = [UInt8](raw as Data)
        func integer(_ part: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(part.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if let first = value.first, first & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(bytes.prefix(32)) + integer(bytes.suffix(32))
        return Data([0x30, UInt8(body.count)] + body) as CFData
    }
}
