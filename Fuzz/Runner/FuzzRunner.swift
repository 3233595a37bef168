import Foundation
import JunctionFuzzTargets

// Built by scripts/fuzz with -DFUZZING and -sanitize=fuzzer,address, this is libFuzzer's
// driver around the target JUNCTION_FUZZ_TARGET names: a property that fails is a crash,
// and libFuzzer saves the input. Built plainly (swift build), it lists the targets and
// replays saved inputs through them, no fuzzer needed.

#if FUZZING
    import CFuzzerDriver

    /// The target JUNCTION_FUZZ_TARGET names, chosen once.
    private let selectedTarget: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["JUNCTION_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTargets.named(name) else {
            let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(Data("JUNCTION_FUZZ_TARGET must name one of: \(names)\n".utf8))
            exit(2)
        }
        return target
    }()

    /// The runner's entry point under libFuzzer: SwiftPM links an executable's `main` to
    /// `<module>_main`, so this is where libFuzzer's driver starts.
    @_cdecl("JunctionFuzz_main")
    func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var argc = argc
        var argv = argv
        _ = selectedTarget
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
            do {
                try selectedTarget.check(bytes)
            } catch {
                fatalError("fuzz target \(selectedTarget.name): \(error)")
            }
            return 0
        }
    }
#else
    /// `JunctionFuzz list` names the targets; `JunctionFuzz replay TARGET FILE…` runs each
    /// file through TARGET and says which properties failed (exit 1 if any).
    @main
    struct FuzzReplay {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            switch arguments.first {
            case "list":
                for target in FuzzTargets.all { print("\(target.name)\t\(target.summary)") }
            case "replay" where arguments.count >= 3:
                guard let target = FuzzTargets.named(arguments[1]) else {
                    fail("no fuzz target \(arguments[1]); JunctionFuzz list names them")
                }
                var failed = false
                for path in arguments.dropFirst(2) {
                    guard let data = FileManager.default.contents(atPath: path) else {
                        fail("\(path): cannot read")
                    }
                    do {
                        try target.check(Array(data))
                        print("\(path): ok")
                    } catch {
                        print("\(path): \(error)")
                        failed = true
                    }
                }
                exit(failed ? 1 : 0)
            default:
                fail("usage: JunctionFuzz list | JunctionFuzz replay TARGET FILE…")
            }
        }

        static func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(2)
        }
    }
#endif
