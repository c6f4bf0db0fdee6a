import Foundation
#if FUZZING
import CFuzzDriver
#endif

/// Built by `make fuzz` (-sanitize=fuzzer -DFUZZING), main hands the command line to libFuzzer,
/// which calls the target TEARDOWN_FUZZ_TARGET names for each input. Built plainly, it replays
/// files through a target, `teardown-fuzz bundle FILE...`, to reproduce what the fuzzer saved.
@main
enum Entry {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
        #else
        let arguments = CommandLine.arguments.dropFirst()
        guard let target = arguments.first else {
            FileHandle.standardError.write(Data("usage: teardown-fuzz bundle|inbox|intake|text|cache|store FILE...\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            FuzzTargets.run(target, [UInt8](data))
        }
        print("replayed \(arguments.count - 1) inputs through \(target)")
        #endif
    }
}

#if FUZZING
private let fuzzTarget = ProcessInfo.processInfo.environment["TEARDOWN_FUZZ_TARGET"] ?? "bundle"

/// Also the name libFuzzer's own main (linked whole, though unused) looks for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.run(fuzzTarget, data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#endif
