import FuzzTargets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer entry point for the receipt parser; aborts when the oracle of
/// `FuzzTargets.receipt` reports a violated property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceipt(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let problems = FuzzTargets.receipt(bytes)
    if !problems.isEmpty {
        for problem in problems { print("FuzzReceipt oracle: \(problem)") }
        abort()
    }
    return 0
}
