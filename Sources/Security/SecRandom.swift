import Foundation

/// `SecRandomRef`: the generator `SecRandomCopyBytes` draws from (only the default exists).
public final class SecRandom: Sendable {}

/// `kSecRandomDefault`: the system's cryptographically secure generator (nil, as on Apple's SDK).
public let kSecRandomDefault: SecRandom? = nil

/// `SecRandomCopyBytes(_:_:_:)`: fills `bytes` with `count` cryptographically
/// secure random bytes (the system generator: getrandom on Linux).
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandom?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count > 0 else { return count == 0 ? errSecSuccess : errSecParam }
    var generator = SystemRandomNumberGenerator()
    var offset = 0
    while offset < count {
        let word = generator.next()
        let take = min(MemoryLayout<UInt64>.size, count - offset)
        withUnsafeBytes(of: word) { source in
            if let base = source.baseAddress { (bytes + offset).copyMemory(from: base, byteCount: take) }
        }
        offset += take
    }
    return errSecSuccess
}
