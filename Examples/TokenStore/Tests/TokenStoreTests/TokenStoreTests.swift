import Crypto
import Foundation
import Security
import SecuritySimulation
import Testing
import TokenStore

/// The example layer's own tests, as an iOS team would write them on Linux:
/// each runs on a simulation of its own (`Simulation.withNew`: a clean
/// keychain and device), so they run in parallel; each says how the user
/// answers, and asserts statuses and prompt counts. A failure prints the
/// simulation's explanation of the last call.
@Suite struct TokenStoreTests {
    /// The test's own simulation, inside `Simulation.withNew`.
    var simulation: Simulation { Simulation.current }
    let token = Data("refresh-token-1".utf8)

    func why() -> Comment { Comment(rawValue: simulation.lastExplanation ?? "no call") }

    @Test func oneSessionAsksForFaceIDOnce() throws {
        try Simulation.withNew {
            let store = TokenStore(service: "com.example.auth")
            try store.save(token, account: "alice")
            #expect(simulation.promptCount == 0, "saving never asks")
            simulation.enqueue(.biometryMatch)
            #expect(try store.read(account: "alice") == token, why())
            #expect(try store.read(account: "alice") == token, why())
            #expect(try store.read(account: "alice") == token, why())
            #expect(simulation.promptCount == 1, "three reads in one session: one Face ID prompt")
            #expect(simulation.unansweredPrompts.isEmpty)
        }
    }

    @Test func lockingTheSessionAsksAgain() throws {
        try Simulation.withNew {
            let store = TokenStore(service: "com.example.auth")
            try store.save(token, account: "alice")
            simulation.enqueue(.biometryMatch, .biometryMatch)
            _ = try store.read(account: "alice")
            store.lock()
            _ = try store.read(account: "alice")
            #expect(simulation.promptCount == 2, why())
        }
    }

    @Test func aCancelIsUserCanceled() throws {
        try Simulation.withNew {
            let store = TokenStore(service: "com.example.auth")
            try store.save(token, account: "alice")
            simulation.enqueue(.cancel)
            #expect(throws: TokenStore.Failure.userCanceled, why()) { try store.read(account: "alice") }
        }
    }

    @Test func theExistenceProbeNeverAsks() throws {
        try Simulation.withNew {
            let store = TokenStore(service: "com.example.auth")
            #expect(!store.exists(account: "alice"))
            try store.save(token, account: "alice")
            #expect(store.exists(account: "alice"), why())
            #expect(simulation.promptCount == 0)
            #expect(simulation.lastExplanation?.contains("-25308") == true, "the probe is answered -25308: it exists, behind Face ID")
        }
    }

    /// The idiom that fails on a phone: a Skip probe never sees a protected item.
    @Test func aSkipProbeMissesAProtectedToken() throws {
        try Simulation.withNew {
            let store = TokenStore(service: "com.example.auth")
            try store.save(token, account: "alice")
            let probe: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.example.auth",
                kSecAttrAccount as String: "alice", kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip,
            ]
            #expect(SecItemCopyMatching(probe as CFDictionary, nil) == errSecItemNotFound, why())
        }
    }

    @Test func aNewFaceMakesTheTokenUnreadable() throws {
        try Simulation.withNew {
            let store = TokenStore(service: "com.example.auth")
            try store.save(token, account: "alice")
            simulation.apply(.biometryEnrollmentChanged)
            #expect(throws: TokenStore.Failure.authenticationFailed, why()) { try store.read(account: "alice") }
            #expect(simulation.promptCount == 0, "an invalidated item fails without a prompt")
            #expect(simulation.lastExplanation?.contains("AC6") == true, why())
            try store.delete(account: "alice")
            #expect(!store.exists(account: "alice"))
        }
    }

    @Test func savingTwiceReplacesTheToken() throws {
        try Simulation.withNew {
            let store = TokenStore(service: "com.example.auth")
            try store.save(token, account: "alice")
            try store.save(Data("refresh-token-2".utf8), account: "alice")
            simulation.enqueue(.passcode)
            simulation.enqueue(.biometryMatch)
            // biometryCurrentSet takes biometry only: the passcode answer fails the first read.
            #expect(throws: TokenStore.Failure.authenticationFailed, why()) { try store.read(account: "alice") }
            #expect(try store.read(account: "alice") == Data("refresh-token-2".utf8), why())
        }
    }

    @Test func aLockedPhoneCannotRead() throws {
        try Simulation.withNew {
            let store = TokenStore(service: "com.example.auth")
            try store.save(token, account: "alice")
            simulation.apply(.lock)
            #expect(throws: TokenStore.Failure.interactionNotAllowed, why()) { try store.read(account: "alice") }
            #expect(simulation.promptCount == 0)
        }
    }

    @Test func theDeviceKeySignsWhatP256Verifies() throws {
        try Simulation.withNew {
            let key = try DeviceKey.create(tag: "com.example.device-key")
            #expect(simulation.promptCount == 0, "creating the key never asks")
            let loaded = try #require(try DeviceKey.load(tag: "com.example.device-key"), why())
            simulation.enqueue(.biometryMatch)
            let message = Data("challenge".utf8)
            let signature = try loaded.sign(message)
            #expect(simulation.promptCount == 1, why())
            let publicKey = try P256.Signing.PublicKey(x963Representation: try key.publicKey())
            #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))
        }
    }

    @Test func aCanceledSignatureIsALocalAuthenticationError() throws {
        try Simulation.withNew {
            let key = try DeviceKey.create(tag: "com.example.device-key")
            simulation.enqueue(.cancel)
            do {
                _ = try key.sign(Data("challenge".utf8))
                Issue.record("signed without the user")
            } catch {
                let ns = error as NSError
                #expect(ns.domain == "com.apple.LocalAuthentication" && ns.code == -2, "K4: \(ns)")
            }
        }
    }
}
