import FuzzTargets

/// libFuzzer entry point of the `adapterReply` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdapterReply(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.adapterReply.entry(start, count)
}
