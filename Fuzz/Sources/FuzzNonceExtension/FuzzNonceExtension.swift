import FuzzTargets

/// libFuzzer entry point of the `nonceExtension` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNonceExtension(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.nonceExtension.entry(start, count)
}
