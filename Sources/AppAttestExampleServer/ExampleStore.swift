import Foundation
import TrustSuiteSupport

/// The server's state: challenges it issued (single-use, short-lived) and
/// the attested keys with their counters. One actor, so two requests never
/// both consume one challenge or both advance one counter. Keys and
/// counters live in a JSON state file written atomically
/// (`AtomicFile`) before a request is answered, so an accepted counter is
/// never forgotten by a restart; challenges live in memory only (a restart
/// forgets the outstanding ones, which can only refuse them).
actor ExampleStore {
    /// An attested key: the public key (X9.63) and the last accepted counter.
    struct Key: Codable, Sendable {
        var publicKey: String
        var counter: UInt32
    }

    struct StateFile: Codable {
        var format = ExampleStore.format
        /// Keyed by the key id in base64.
        var keys: [String: Key]
    }

    static let format = "trustsuite-example-server/1"
    /// Largest state file read (each key takes about 150 bytes).
    static let maxStateBytes = 64 * 1024 * 1024
    /// Most challenges outstanding at once: issuing is unauthenticated, so
    /// a client asking in a loop must not grow memory without bound.
    static let maxOutstandingChallenges = 100_000

    let stateFile: URL?
    let challengeLifetime: TimeInterval
    private var keys: [String: Key]
    private var challenges: [String: Date] = [:]

    init(stateFile: URL?, challengeLifetime: TimeInterval) throws {
        self.stateFile = stateFile
        self.challengeLifetime = challengeLifetime
        keys = [:]
        guard let stateFile else { return }
        AtomicFile.removeStaleTemporaries(in: stateFile.deletingLastPathComponent(), named: stateFile.lastPathComponent)
        guard FileManager.default.fileExists(atPath: stateFile.path) else { return }
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(stateFile.path, limit: Self.maxStateBytes)
        } catch {
            throw ExampleServerError("state file \(stateFile.path): \(error.description)")
        }
        guard let state = try? JSONDecoder().decode(StateFile.self, from: Data(bytes)), state.format == Self.format else {
            throw ExampleServerError("state file \(stateFile.path) is not a \(Self.format) file")
        }
        keys = state.keys
    }

    /// A new challenge: 32 random bytes, remembered until used or expired.
    func issueChallenge(now: Date) -> [UInt8] {
        challenges = challenges.filter { $0.value > now }
        if challenges.count >= Self.maxOutstandingChallenges, let oldest = challenges.min(by: { $0.value < $1.value }) {
            challenges[oldest.key] = nil
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        challenges[BinaryText.base64(bytes)] = now.addingTimeInterval(challengeLifetime)
        return bytes
    }

    /// Removes the challenge and says whether it was issued and still fresh
    /// (single use: a second call with the same challenge is false).
    func consumeChallenge(_ bytes: [UInt8], now: Date, flaws: Set<ExampleServerFlaw>) -> Bool {
        let key = BinaryText.base64(bytes)
        let expiry = challenges[key]
        if !flaws.contains(.reusableChallenges) { challenges[key] = nil }
        guard let expiry else { return flaws.contains(.unissuedChallenges) }
        return expiry > now
    }

    func key(_ keyId: [UInt8]) -> Key? { keys[BinaryText.base64(keyId)] }

    /// Stores a newly attested key; false when the key id is already attested.
    func addKey(_ keyId: [UInt8], publicKey: [UInt8], overwrite: Bool) throws -> Bool {
        let id = BinaryText.base64(keyId)
        guard keys[id] == nil || overwrite else { return false }
        var next = keys
        next[id] = Key(publicKey: BinaryText.base64(publicKey), counter: 0)
        try save(next)
        keys = next
        return true
    }

    /// Runs `verify` on the stored key and saves the counter it returns,
    /// in one step of the actor: two assertions for one key cannot both
    /// pass against the same stored counter. Nil when the key is unknown.
    func advance(_ keyId: [UInt8], _ verify: @Sendable (Key) throws -> UInt32) throws -> UInt32? {
        let id = BinaryText.base64(keyId)
        guard var key = keys[id] else { return nil }
        key.counter = try verify(key)
        var next = keys
        next[id] = key
        try save(next)
        keys = next
        return key.counter
    }

    private func save(_ keys: [String: Key]) throws {
        guard let stateFile else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(StateFile(keys: keys)), to: stateFile)
    }
}
