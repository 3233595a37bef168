/// One Lua 5.4 VM instruction as `lopcodes.h` lays it out: a 7-bit opcode, then `A` (8
/// bits), `k` (1), `B` (8) and `C` (8); or `A` and a 17-bit `Bx`; or a 25-bit `sJ`/`Ax`.
///
/// The opcode numbering is the same in every Lua 5.4 release (5.4.0 to 5.4.8).
struct Instruction {
    /// The instruction as it is stored.
    let raw: UInt32

    /// `OFFSET_sJ`: a signed jump is stored with this added.
    private static let jumpOffset = (1 << 25 - 1) >> 1

    /// The opcode, or `nil` for a number this code does not know.
    var opcode: Opcode? { Opcode(rawValue: UInt8(raw & 0x7F)) }
    var a: Int { Int(raw >> 7 & 0xFF) }
    var k: Bool { raw >> 15 & 1 != 0 }
    var b: Int { Int(raw >> 16 & 0xFF) }
    var c: Int { Int(raw >> 24 & 0xFF) }
    var bx: Int { Int(raw >> 15) }
    var ax: Int { Int(raw >> 7) }
    var sJ: Int { Int(raw >> 7) - Self.jumpOffset }

    /// The registers the instruction may write, or `nil` when it writes none. An
    /// instruction that writes from `A` up to a count known only at run time (a call's
    /// results, `...`) is taken to write every register from `A` on.
    var writtenRegisters: ClosedRange<Int>? {
        guard let opcode else { return 0...Int.max }
        switch opcode {
        case .setUpvalue, .setTableUpvalue, .setTable, .setIndex, .setField, .metamethodBinary,
            .metamethodBinaryImmediate, .metamethodBinaryConstant, .close, .toBeClosed, .jump, .equal, .lessThan,
            .lessEqual, .equalConstant, .equalImmediate, .lessThanImmediate, .lessEqualImmediate,
            .greaterThanImmediate, .greaterEqualImmediate, .test, .returnValues, .return0, .return1, .setList,
            .varargPrepare, .extraArgument:
            return nil
        case .loadNil: return a...(a + b)
        case .method: return a...(a + 1)
        case .concat: return a...(a + max(b, 1) - 1)
        case .forLoop, .forPrepare, .genericForPrepare: return a...(a + 3)
        case .call, .tailCall, .genericForCall, .genericForLoop, .vararg: return a...Int.max
        default: return a...a
        }
    }

    /// Where the instruction at `pc` may jump besides the next instruction, if anywhere:
    /// a jump's target, the instruction a test or `LFALSESKIP` skips to, a loop's start or end.
    func jumpTarget(at pc: Int) -> Int? {
        switch opcode {
        case .jump?: pc + 1 + sJ
        case .equal?, .lessThan?, .lessEqual?, .equalConstant?, .equalImmediate?, .lessThanImmediate?,
            .lessEqualImmediate?, .greaterThanImmediate?, .greaterEqualImmediate?, .test?, .testSet?,
            .loadFalseSkip?:
            pc + 2
        case .forLoop?, .genericForLoop?: pc + 1 - bx
        case .forPrepare?: pc + bx + 2
        case .genericForPrepare?: pc + 1 + bx
        default: nil
        }
    }
}

/// Lua 5.4's opcodes (`lopcodes.h`), named for what they do.
enum Opcode: UInt8 {
    case move, loadInteger, loadFloat, loadConstant, loadConstantExtra, loadFalse, loadFalseSkip, loadTrue, loadNil
    case getUpvalue, setUpvalue
    case getTableUpvalue, getTable, getIndex, getField
    case setTableUpvalue, setTable, setIndex, setField
    case newTable, method
    case addImmediate, addConstant, subtractConstant, multiplyConstant, moduloConstant, powerConstant
    case divideConstant, floorDivideConstant, andConstant, orConstant, xorConstant
    case shiftRightImmediate, shiftLeftImmediate
    case add, subtract, multiply, modulo, power, divide, floorDivide, and, or, xor, shiftLeft, shiftRight
    case metamethodBinary, metamethodBinaryImmediate, metamethodBinaryConstant
    case negate, bitwiseNot, not, length, concat
    case close, toBeClosed, jump
    case equal, lessThan, lessEqual, equalConstant, equalImmediate
    case lessThanImmediate, lessEqualImmediate, greaterThanImmediate, greaterEqualImmediate
    case test, testSet, call, tailCall, returnValues, return0, return1
    case forLoop, forPrepare, genericForPrepare, genericForCall, genericForLoop
    case setList, closure, vararg, varargPrepare, extraArgument
}
