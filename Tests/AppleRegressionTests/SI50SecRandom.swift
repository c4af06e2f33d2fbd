import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's si-50-secrandom.c: `SecRandomCopyBytes` fills a buffer, whatever generator it is named.
@Suite struct SI50SecRandom {
    @Test func copyBytes() {
        Simulation.withNew {
            let t = AppleFile("si-50-secrandom.c", plan: 2)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = 42
            let offset = 23
            let statusDefault = buffer.withUnsafeMutableBytes { raw -> Int32 in
                guard let base = raw.baseAddress else { return errSecAllocate }
                return SecRandomCopyBytes(kSecRandomDefault, count, base + offset)
            }
            t.okStatus(statusDefault, line: 41, "42 random bytes from the default generator")
            // A generator that is not kSecRandomDefault: a pointer to some unrelated storage.
            var unrelated: Int32 = 0
            let statusOther = withUnsafeMutablePointer(to: &unrelated) { other -> Int32 in
                buffer.withUnsafeMutableBytes { raw -> Int32 in
                    guard let base = raw.baseAddress else { return errSecAllocate }
                    return SecRandomCopyBytes(OpaquePointer(other), count, base + offset)
                }
            }
            t.okStatus(statusOther, line: 42, "another generator reference is ignored")
            t.finish()
        }
    }
}
