import FuzzTargets

/// libFuzzer entry point: `FuzzTargets.aclEvaluate` on each input (JSON of `acl evaluate`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzACL(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzTargets.libFuzzerEntry(start, count, name: "FuzzACL", FuzzTargets.aclEvaluate)
}
