import FuzzTargets

/// libFuzzer entry point of the `deviceCheck` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceCheck(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.deviceCheck.entry(start, count)
}
