import Foundation
import Synchronization
internal import KeychainModel
internal import LocalAuthorization
internal import SecuritySimulation

/// `LARightStore` (iOS 16): rights saved under identifiers, each backed by a
/// new P-256 key (software, standing in for the Secure Enclave) and an
/// optional secret, over the `LocalAuthorization` model's store. The store
/// is the simulation's: every `reset()` or session empties it.
open class LARightStore: NSObject {
    // Apple declares the store not `Sendable`; its state is the simulation's (a `Mutex`), it holds none itself.
    nonisolated(unsafe) private static let instance = LARightStore()

    /// The app's store.
    open class var shared: LARightStore { instance }

    private override init() { super.init() }

    private var model: RightStore { Simulation.current.services.rightStore }

    /// The right saved as `identifier`, as a new instance in state unknown.
    open func right(forIdentifier identifier: String) async throws -> LAPersistedRight {
        do {
            let persisted = try await model.right(forIdentifier: identifier)
            log("LARightStore.right", nil, "found \"\(identifier)\"")
            return LAPersistedRight(persisted)
        } catch {
            log("LARightStore.right", error.code, error.reason)
            throw rightError(error)
        }
    }

    /// ``right(forIdentifier:)``; `handler` gets the right or the error, on a global queue.
    open func right(
        forIdentifier identifier: String, completion handler: @escaping (LAPersistedRight?, (any Error)?) -> Void
    ) {
        inTask { [self] in
            do { handler(try await right(forIdentifier: identifier), nil) } catch { handler(nil, error) }
        }
    }

    /// Saves `right` under `identifier`: a new persisted right (state
    /// unknown) whose key's access control is the requirement's.
    open func saveRight(_ right: LARight, identifier: String) async throws -> LAPersistedRight {
        try await save(right, identifier, secret: nil)
    }

    /// ``saveRight(_:identifier:)``; `handler` gets the right or the error, on a global queue.
    open func saveRight(
        _ right: LARight, identifier: String, completion handler: @escaping (LAPersistedRight?, (any Error)?) -> Void
    ) {
        inTask { [self] in
            do { handler(try await saveRight(right, identifier: identifier), nil) } catch { handler(nil, error) }
        }
    }

    /// Saves `right` under `identifier` with `secret`, readable while the persisted right is authorized.
    open func saveRight(_ right: LARight, identifier: String, secret: Data) async throws -> LAPersistedRight {
        try await save(right, identifier, secret: Array(secret))
    }

    /// ``saveRight(_:identifier:secret:)``; `handler` gets the right or the error, on a global queue.
    open func saveRight(
        _ right: LARight, identifier: String, secret: Data,
        completion handler: @escaping (LAPersistedRight?, (any Error)?) -> Void
    ) {
        inTask { [self] in
            do { handler(try await saveRight(right, identifier: identifier, secret: secret), nil) } catch { handler(nil, error) }
        }
    }

    /// Removes `right` from the store: its instances can no longer use their key or secret.
    open func removeRight(_ right: LAPersistedRight) async throws {
        try right.checkCurrent()
        await model.removeRight(right.persisted)
        log("LARightStore.removeRight", nil, "removed \"\(right.persisted.identifier)\"")
    }

    /// ``removeRight(_:)``; `handler` gets nil, on a global queue.
    open func removeRight(_ right: LAPersistedRight, completion handler: @escaping ((any Error)?) -> Void) {
        inTask { [self] in
            do { try await removeRight(right) } catch { return handler(error) }
            handler(nil)
        }
    }

    /// Removes the right saved as `identifier`; no error when there is none.
    open func removeRight(forIdentifier identifier: String) async throws {
        await model.removeRight(forIdentifier: identifier)
        log("LARightStore.removeRight", nil, "removed \"\(identifier)\" (if it was there)")
    }

    /// ``removeRight(forIdentifier:)``; `handler` gets nil, on a global queue.
    open func removeRight(forIdentifier identifier: String, completion handler: @escaping ((any Error)?) -> Void) {
        inTask { [self] in
            do { try await removeRight(forIdentifier: identifier) } catch { return handler(error) }
            handler(nil)
        }
    }

    /// Removes every right of the app.
    open func removeAllRights() async throws {
        await model.removeAllRights()
        log("LARightStore.removeAllRights", nil, "the store is empty")
    }

    /// ``removeAllRights()``; `handler` gets nil, on a global queue.
    open func removeAllRights(completion handler: @escaping ((any Error)?) -> Void) {
        inTask { [self] in
            do { try await removeAllRights() } catch { return handler(error) }
            handler(nil)
        }
    }

    private func save(_ right: LARight, _ identifier: String, secret: [UInt8]?) async throws -> LAPersistedRight {
        try right.checkCurrent()
        do {
            let persisted = try await model.saveRight(right.model, identifier: identifier, secret: secret)
            log("LARightStore.saveRight", nil, "saved \"\(identifier)\" (\(right.model.requirement.rawValue))")
            return LAPersistedRight(persisted)
        } catch {
            log("LARightStore.saveRight", error.code, error.reason)
            throw rightError(error)
        }
    }

    private func log(_ call: String, _ code: LAModelError.Code?, _ reason: String) { logRightCall(call, code, reason) }
}

/// `LAPersistedRight`: a right saved in ``LARightStore``, with its private
/// key (usable while authorized) and its secret.
open class LAPersistedRight: LARight {
    let persisted: PersistedRight
    /// The key and secret objects, made on first use (one of each per right),
    /// under `lock`: Apple declares the class not `Sendable`, but a right
    /// shared between threads still hands out one key and one secret.
    private var objects: (key: LAPrivateKey?, secret: LASecret?) = (nil, nil)
    private let lock = NSLock()

    init(_ persisted: PersistedRight) {
        self.persisted = persisted
        super.init(model: persisted.right)
    }

    /// The right's private key: signs, decrypts and exchanges keys only while the right is authorized.
    open var key: LAPrivateKey {
        lock.withLock {
            if let key = objects.key { return key }
            let made = LAPrivateKey(self)
            objects.key = made
            return made
        }
    }

    /// The secret saved with the right: readable only while the right is authorized.
    open var secret: LASecret {
        lock.withLock {
            if let secret = objects.secret { return secret }
            let made = LASecret(self)
            objects.secret = made
            return made
        }
    }
}

/// Where a key or secret finds its right: gone once the `LAPersistedRight` is released.
final class RightReference {
    private weak var right: LAPersistedRight?
    /// The model's persisted right, kept so its state can still be asked.
    let persisted: PersistedRight

    init(_ right: LAPersistedRight) {
        self.right = right
        persisted = right.persisted
    }

    /// The model's persisted right while the API object lives, else `rightDeallocated`.
    func live() throws -> PersistedRight {
        guard let right else {
            throw rightError(LAModelError(.rightDeallocated, "the LAPersistedRight this object belongs to was released"))
        }
        try right.checkCurrent()
        return persisted
    }
}

/// `LASecret`: the secret saved with a persisted right.
open class LASecret: NSObject {
    let reference: RightReference

    init(_ right: LAPersistedRight) {
        reference = RightReference(right)
        super.init()
    }

    /// The secret's bytes, only while the right is authorized: Apple's
    /// async form of ``loadData(completion:)`` is this property
    /// (`NS_SWIFT_ASYNC_NAME(getter:rawData())`), the name WWDC22's
    /// "Streamline local authorization flows" uses.
    open var rawData: Data {
        get async throws {
            let persisted = try reference.live()
            do {
                return Data(try await persisted.loadSecret())
            } catch {
                throw rightError(error)
            }
        }
    }

    /// ``rawData``; `handler` gets the bytes or the error, on a global queue.
    open func loadData(completion handler: @escaping (Data?, (any Error)?) -> Void) {
        inTask { [self] in
            do { handler(try await rawData, nil) } catch { handler(nil, error) }
        }
    }
}
