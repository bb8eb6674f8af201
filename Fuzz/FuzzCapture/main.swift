import CLibFuzzer
import Foundation

/// libFuzzer's entry point; also what the replay driver calls for each file.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    CaptureParserFuzz.run(data.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}

// libFuzzer's driver under `-sanitize=fuzzer` (scripts/fuzz); otherwise replays the files named on the command line.
exit(cfz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput))
