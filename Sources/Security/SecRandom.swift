import Foundation

/// `SecRandomRef`: the generator `SecRandomCopyBytes` draws from (only the
/// default exists), an opaque pointer as Apple's SDK imports it.
public typealias SecRandomRef = OpaquePointer

/// The one byte `kSecRandomDefault` points at: never read, only a non-null address.
nonisolated(unsafe) private let defaultGenerator = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

/// `kSecRandomDefault`: the system's cryptographically secure generator.
public var kSecRandomDefault: SecRandomRef { OpaquePointer(defaultGenerator) }

/// `SecRandomCopyBytes(_:_:_:)`: fills `bytes` with `count` cryptographically
/// secure random bytes (the system generator: getrandom on Linux).
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
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
