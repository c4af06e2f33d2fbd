import FuzzTargets

/// libFuzzer entry point of the `keychainFlow` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeychainFlow(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.keychainFlow.entry(start, count)
}
