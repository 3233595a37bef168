import JunctionCore

/// Reads the compiled chunk of one bundle file, every function in it at any depth, for
/// what `junction check` reports from code (``RuleAnalysis``): global names read that no
/// one defines, fields read that a sandbox library lacks, the string literals
/// `req.source` is compared with, the literal targets of the sandbox's `redirect` each
/// function calls in its own body (``functionRedirects``), and the functions that read
/// `respond` (``respondingSpans``).
///
/// Lua's compiler names every global it reads in the instruction that reads it: a global
/// is a field of `_ENV`, the chunk's first upvalue, read with a constant key
/// (`GETTABUP`), or — for a name longer than 40 bytes or beyond a function's 256th
/// constant — the same through registers (`GETUPVAL _ENV`, `LOADK name`, `GETTABLE`). A
/// local or parameter is a register and never such a read, and a local named `_ENV`
/// is not the chunk's: each function's upvalue descriptors tell which upvalue leads back
/// to it.
///
/// Within a run of instructions that no jump enters, the scanner knows what some
/// registers hold — the environment, a global's value, a string constant, `req`,
/// `req.source` — and so sees `url.encdoe` (`GETFIELD` on `url`'s value),
/// `_G.rolout`, `req.source == "pusj"` (`EQK`, or `EQ` with the literal in a
/// register) and `redirect("https://…")` (a call of `redirect`'s value with a string
/// constant in its first argument's register, whose result is used). Where jumps meet,
/// it forgets them, except a local that holds `req.source` for its whole life
/// (`local s = req.source`: nothing else writes its register, no closure captures it).
/// `req` is a local, parameter or upvalue of that name; so is `ctx`, whose field reads —
/// `ctx.user`, then `.id` on what it gave — are recorded as paths (`user.id`), to check
/// against the manifest's context schema.
///
/// Its work is linear in the size of the chunk, which the engine's memory limit bounds:
/// the same text compiled within it when the bundle loaded.
struct ChunkScanner {
    /// What is defined.
    let names: GlobalNames
    /// The file scanned, as findings name it.
    let file: String
    private(set) var analysis = RuleAnalysis()
    /// The literal targets of the `redirect` calls in the own body of each function the
    /// chunk defines (its main function aside), by the function's span. A span that
    /// functions with different calls share has none: which one a declared function is
    /// cannot be told.
    private(set) var functionRedirects: [FunctionSpan: [RuleAnalysis.Use]] = [:]
    /// The spans of the functions whose own body reads the global `respond` — the main
    /// function's (lines 0 to 0) among them when it does.
    private(set) var respondingSpans: [FunctionSpan] = []
    /// The tail calls of a global's value in every function of the chunk (`return
    /// redirect(...)` is `redirect`), with their lines: where an error raised through a
    /// tail call came from (``tailCallLines(in:calling:)``).
    private(set) var tailCalls: [(callee: String, line: Int)] = []
    /// The spans of the functions whose own body both calls `version.compare` and reads
    /// the global `redirect`: rules that may send some app versions elsewhere.
    private(set) var versionRoutingSpans: [FunctionSpan] = []

    init(names: GlobalNames, file: String) {
        self.names = names
        self.file = file
    }

    /// Scans the dump of a chunk `lua_dump` wrote with its debug information.
    mutating func scan(_ dump: UnsafeRawBufferPointer) throws {
        var reader = ChunkReader(bytes: dump)
        try reader.header()
        try reader.skip(1)  // the main function's upvalue count
        _ = try prototype(in: &reader, parentUpvalues: nil)
    }

    /// What a register holds, as far as a straight run of instructions tells.
    private enum Held: Equatable {
        case unknown
        /// The chunk's `_ENV`.
        case environment
        /// The string constant of this index.
        case text(Int)
        /// The value of the global of this name.
        case global(String)
        /// `req`.
        case request
        /// `req.source`.
        case requestSource
        /// `req.route`.
        case requestRoute
        /// The sandbox's `version.compare`.
        case versionCompare
        /// `ctx`, or the value at this path in it (`["user"]` for `ctx.user`).
        case context([String])
    }

    /// One upvalue descriptor: a register of the enclosing function (`inStack`) or one
    /// of its upvalues.
    private struct Capture {
        var inStack: Bool
        var index: Int
    }

    /// One local variable: its name, the instructions it lives over, its register.
    private struct Local {
        var name: String
        var start: Int
        var end: Int
        var register = 0
    }

    /// Reads one prototype and those nested in it, scanning each.
    /// - Parameter parentUpvalues: For each upvalue of the enclosing function, whether
    ///   it is the chunk's `_ENV`; `nil` for the main function, whose first upvalue is.
    /// - Returns: The prototype's upvalue descriptors.
    private mutating func prototype(in reader: inout ChunkReader, parentUpvalues: [Bool]?) throws -> [Capture] {
        _ = try reader.string()  // source
        let lineDefined = try reader.size()
        let lastLineDefined = try reader.size()
        try reader.skip(2)  // numparams, is_vararg
        let registers = Int(try reader.byte())
        let codeCount = try reader.size()
        let code = reader.offset
        guard codeCount <= (reader.bytes.count - code) / 4 else { throw ChunkReader.FormatError(offset: code) }
        try reader.skip(4 * codeCount)
        let constants = try reader.stringConstants()
        var captures: [Capture] = []
        for _ in 0..<(try reader.size()) {
            let inStack = try reader.byte() != 0
            captures.append(Capture(inStack: inStack, index: Int(try reader.byte())))
            try reader.skip(1)  // kind
        }
        let environment =
            parentUpvalues.map { parent in
                captures.map { !$0.inStack && $0.index < parent.count && parent[$0.index] }
            } ?? captures.indices.map { $0 == 0 }
        var nested: [[Capture]] = []
        for _ in 0..<(try reader.size()) {
            nested.append(try prototype(in: &reader, parentUpvalues: environment))
        }
        let deltaCount = try reader.size()
        guard deltaCount == codeCount || deltaCount == 0 else { throw ChunkReader.FormatError(offset: reader.offset) }
        let deltas = reader.offset
        try reader.skip(deltaCount)
        var absolute: [(pc: Int, line: Int)] = []
        for _ in 0..<(try reader.size()) { absolute.append((try reader.size(), try reader.size())) }
        var locals: [Local] = []
        for _ in 0..<(try reader.size()) {
            locals.append(Local(name: try reader.string() ?? "", start: try reader.size(), end: try reader.size()))
        }
        var upvalueNames: [String] = []
        for _ in 0..<(try reader.size()) { upvalueNames.append(try reader.string() ?? "") }

        // The main function's `_ENV` is its upvalue of that name: a function dumped on its
        // own (``tailCallLines(in:calling:)``) may hold others before it.
        let bodyEnvironment =
            parentUpvalues == nil && upvalueNames.count == captures.count
            ? upvalueNames.map { $0 == "_ENV" } : environment
        let body = Body(
            bytes: reader.bytes, code: code, count: codeCount, registers: max(registers, 1), constants: constants,
            environment: bodyEnvironment, upvalueNames: upvalueNames, nested: nested, locals: Self.placed(locals),
            lines: LineCursor(
                bytes: reader.bytes, deltas: deltas, count: deltaCount, absolute: absolute, lineDefined: lineDefined))
        var redirects: [RuleAnalysis.Use] = []
        var readsRespond = false
        var routesByVersion = (comparesVersions: false, readsRedirect: false)
        var ownTailCalls: [(callee: String, line: Int)] = []
        try body.scan(
            names: names, file: file, into: &analysis, redirects: &redirects, readsRespond: &readsRespond,
            routesByVersion: &routesByVersion, tailCalls: &ownTailCalls)
        tailCalls += ownTailCalls
        let span = FunctionSpan(file: file, lineDefined: lineDefined, lastLineDefined: lastLineDefined)
        if readsRespond { respondingSpans.append(span) }
        if routesByVersion.comparesVersions, routesByVersion.readsRedirect { versionRoutingSpans.append(span) }
        if parentUpvalues != nil {
            // Once emptied for a conflict, only more functions without calls agree with it.
            if let other = functionRedirects[span] {
                if other != redirects { functionRedirects[span] = [] }
            } else {
                functionRedirects[span] = redirects
            }
        }
        return captures
    }

    /// `locals` with their registers: the n-th local alive at an instruction is in
    /// register n - 1 (`luaF_getlocalname`), and locals end in the reverse order they start.
    private static func placed(_ locals: [Local]) -> [Local] {
        var placed = locals
        var alive: [Int] = []  // ends of the locals alive, innermost last
        for index in placed.indices {
            while let last = alive.last, last <= placed[index].start { alive.removeLast() }
            placed[index].register = alive.count
            alive.append(placed[index].end)
        }
        return placed
    }

    /// One prototype's instructions and what scanning them needs.
    private struct Body {
        let bytes: UnsafeRawBufferPointer
        let code: Int
        let count: Int
        let registers: Int
        let constants: [String?]
        /// For each upvalue, whether it is the chunk's `_ENV`.
        let environment: [Bool]
        let upvalueNames: [String]
        /// The upvalue descriptors of each nested prototype, by its index.
        let nested: [[Capture]]
        let locals: [Local]
        let lines: LineCursor

        func instruction(at pc: Int) -> Instruction {
            Instruction(raw: bytes.loadUnaligned(fromByteOffset: code + 4 * pc, as: UInt32.self))
        }

        func constant(_ index: Int) -> String? { index < constants.count ? constants[index] : nil }

        /// Scans the body, adding what it finds to `analysis`, the literal targets of the
        /// `redirect` calls whose result it uses to `redirects`, and whether it reads the
        /// global `respond` (in any way the scanner sees a global read) to `readsRespond`, and
        /// whether it reads `version.compare` and `redirect` to `routesByVersion`, and the
        /// globals it tail-calls, with their lines, to `tailCalls`.
        func scan(
            names: GlobalNames, file: String, into analysis: inout RuleAnalysis, redirects: inout [RuleAnalysis.Use],
            readsRespond: inout Bool, routesByVersion: inout (comparesVersions: Bool, readsRedirect: Bool),
            tailCalls: inout [(callee: String, line: Int)]
        ) throws {
            // The sandbox's verdict constructor, unless the bundle defines a global of that name.
            let redirect: Held? =
                names.sandbox.contains("redirect") && !names.bundle.contains("redirect")
                ? .global("redirect") : nil
            let sandboxVersion = names.sandbox.contains("version") && !names.bundle.contains("version")
            var lines = self.lines
            var entered = [Bool](repeating: false, count: count)
            for pc in 0..<count {
                if let target = instruction(at: pc).jumpTarget(at: pc), target >= 0, target < count {
                    entered[target] = true
                }
            }
            var held = [Held](repeating: .unknown, count: registers)
            // Locals holding `req.source` for life: register and the end of that life.
            var steady: [(register: Int, end: Int)] = []
            var aliveLocal = [Int?](repeating: nil, count: registers)
            // Locals a closure captured: a call may change them through it, until they die.
            var captured = [Bool](repeating: false, count: registers)
            let byEnd = locals.indices.sorted { locals[$0].end < locals[$1].end }
            var nextStart = 0
            var nextEnd = 0

            func localName(_ register: Int) -> String? {
                register < registers ? aliveLocal[register].map { locals[$0].name } : nil
            }
            func holds(_ register: Int) -> Held {
                guard register < registers, !captured[register] else { return .unknown }
                if held[register] == .unknown, localName(register) == "req" { return .request }
                if held[register] == .unknown, localName(register) == "ctx" { return .context([]) }
                return held[register]
            }

            // The context paths this body tests (`if ctx.user`, `ctx.user and …`,
            // `ctx.user == nil`, `type(ctx.user)`), and the fields it reads of a path, with
            // where: a field of a path it never tests fails when the path is absent.
            var tested: Set<String> = []
            var nestedReads: [(parent: String, line: Int)] = []
            func test(_ register: Int) {
                if case .context(let path) = holds(register), !path.isEmpty {
                    tested.insert(path.joined(separator: "."))
                }
            }

            var pc = 0
            while pc < count {
                while nextEnd < byEnd.count, locals[byEnd[nextEnd]].end <= pc {
                    let local = locals[byEnd[nextEnd]]
                    if local.register < registers, aliveLocal[local.register] == byEnd[nextEnd] {
                        aliveLocal[local.register] = nil
                    }
                    nextEnd += 1
                }
                while nextStart < locals.count, locals[nextStart].start <= pc {
                    let local = locals[nextStart]
                    if local.end > pc, local.register < registers {
                        aliveLocal[local.register] = nextStart
                        captured[local.register] = false
                    }
                    nextStart += 1
                }
                if entered[pc] {
                    steady.removeAll { $0.end <= pc }
                    for register in held.indices where !steady.contains(where: { $0.register == register }) {
                        held[register] = .unknown
                    }
                }
                let instruction = instruction(at: pc)
                var result = Held.unknown
                var use: (kind: Use, name: String)?
                var redirectTarget: String?
                var versionLiterals: [String] = []
                var orderings: [String] = []

                func read(global name: String) {
                    if !names.defines(name) { use = (.global, name) }
                    if name == "respond" { readsRespond = true }
                    if name == "redirect" { routesByVersion.readsRedirect = true }
                    result = .global(name)
                }
                func read(field: String, of table: Held) {
                    switch table {
                    case .environment:
                        read(global: field)
                    case .global(let name) where name == names.environmentTable:
                        read(global: field)
                    case .global("version") where field == "compare" && sandboxVersion:
                        result = .versionCompare
                        routesByVersion.comparesVersions = true
                    case .global(let library):
                        if let fields = names.libraries[library], !fields.contains(field) {
                            use = (.field(library), field)
                        }
                    case .request where field == "source":
                        result = .requestSource
                    case .request where field == "route":
                        result = .requestRoute
                    case .request where !RuleAnalysis.requestFields.contains(field):
                        use = (.requestField, field)
                    case .requestRoute where !RuleAnalysis.routeFields.contains(field):
                        use = (.requestField, "route." + field)
                    case .context(let path) where path.count < ContextSchema.maximumDepth:
                        result = .context(path + [field])
                        use = (.contextRead, (path + [field]).joined(separator: "."))
                    default:
                        break
                    }
                }

                switch instruction.opcode {
                case .move?:
                    result = holds(instruction.b)
                case .loadConstant?:
                    if constant(instruction.bx) != nil { result = .text(instruction.bx) }
                case .loadConstantExtra?:
                    if pc + 1 < count, constant(self.instruction(at: pc + 1).ax) != nil {
                        result = .text(self.instruction(at: pc + 1).ax)
                    }
                case .getUpvalue?:
                    let upvalue = instruction.b
                    if upvalue < environment.count, environment[upvalue] {
                        result = .environment
                    } else if upvalue < upvalueNames.count, upvalueNames[upvalue] == "req" {
                        result = .request
                    } else if upvalue < upvalueNames.count, upvalueNames[upvalue] == "ctx" {
                        result = .context([])
                    }
                case .getTableUpvalue?:
                    let upvalue = instruction.b
                    if let key = constant(instruction.c) {
                        if upvalue < environment.count, environment[upvalue] {
                            read(global: key)
                        } else if upvalue < upvalueNames.count, upvalueNames[upvalue] == "req" {
                            read(field: key, of: .request)
                        } else if upvalue < upvalueNames.count, upvalueNames[upvalue] == "ctx" {
                            read(field: key, of: .context([]))
                        }
                    }
                case .getTable?:
                    if case .text(let key) = holds(instruction.c), let key = constant(key) {
                        read(field: key, of: holds(instruction.b))
                    }
                case .getField?:
                    if let key = constant(instruction.c) { read(field: key, of: holds(instruction.b)) }
                case .equalConstant?:
                    if holds(instruction.a) == .requestSource, let literal = constant(instruction.b) {
                        use = (.sourceComparison, literal)
                    }
                    test(instruction.a)
                case .test?:
                    test(instruction.a)
                case .testSet?:
                    test(instruction.b)
                case .closure?:
                    if instruction.bx < nested.count {
                        for capture in nested[instruction.bx] where capture.inStack && capture.index < registers {
                            captured[capture.index] = true
                        }
                    }
                case .call?, .tailCall?:
                    // B - 1 arguments (B = 0: up to the top) and C - 1 results: a call with
                    // no argument, or whose result is dropped, returns no target.
                    if instruction.b != 1, instruction.opcode == .tailCall || instruction.c != 1,
                        holds(instruction.a) == redirect,
                        case .text(let index) = holds(instruction.a + 1)
                    {
                        redirectTarget = constant(index)
                    }
                    if instruction.b != 1, holds(instruction.a) == .global("type") { test(instruction.a + 1) }
                    if instruction.opcode == .tailCall, case .global(let callee) = holds(instruction.a) {
                        tailCalls.append((callee, try lines.line(at: pc)))
                    }
                    if holds(instruction.a) == .versionCompare {
                        // The literals among its first two arguments (B = 0: all there are).
                        for argument in 1...2 where instruction.b == 0 || argument < instruction.b {
                            if case .text(let index) = holds(instruction.a + argument), let literal = constant(index) {
                                versionLiterals.append(literal)
                            }
                        }
                    }
                case .lessThan?, .lessEqual?:
                    for register in [instruction.a, instruction.b] {
                        if case .context(let path) = holds(register), !path.isEmpty {
                            orderings.append(path.joined(separator: "."))
                        }
                    }
                case .lessThanImmediate?, .lessEqualImmediate?, .greaterThanImmediate?, .greaterEqualImmediate?:
                    if case .context(let path) = holds(instruction.a), !path.isEmpty {
                        orderings.append(path.joined(separator: "."))
                    }
                case .equal?:
                    test(instruction.a)
                    test(instruction.b)
                    switch (holds(instruction.a), holds(instruction.b)) {
                    case (.requestSource, .text(let index)), (.text(let index), .requestSource):
                        if let literal = constant(index) { use = (.sourceComparison, literal) }
                    default: break
                    }
                default:
                    break
                }

                if !versionLiterals.isEmpty || !orderings.isEmpty {
                    let line = try lines.line(at: pc)
                    for literal in versionLiterals {
                        analysis.versionLiterals.append(RuleAnalysis.Use(name: literal, file: file, line: line))
                    }
                    for path in orderings {
                        analysis.contextOrderings.append(RuleAnalysis.Use(name: path, file: file, line: line))
                    }
                }
                if let redirectTarget {
                    redirects.append(RuleAnalysis.Use(name: redirectTarget, file: file, line: try lines.line(at: pc)))
                }
                if let (kind, name) = use {
                    let line = try lines.line(at: pc)
                    switch kind {
                    case .global:
                        analysis.undefinedGlobals.append(RuleAnalysis.Use(name: name, file: file, line: line))
                    case .field(let table):
                        analysis.undefinedFields.append(
                            RuleAnalysis.FieldUse(table: table, field: name, file: file, line: line))
                    case .sourceComparison:
                        analysis.sourceComparisons.append(RuleAnalysis.Use(name: name, file: file, line: line))
                    case .contextRead:
                        analysis.contextReads.append(RuleAnalysis.Use(name: name, file: file, line: line))
                        if let dot = name.lastIndex(of: ".") { nestedReads.append((String(name[..<dot]), line)) }
                    case .requestField:
                        analysis.requestFieldReads.append(RuleAnalysis.Use(name: name, file: file, line: line))
                    }
                }
                if let written = instruction.writtenRegisters, written.lowerBound < registers {
                    for register in written.lowerBound...min(written.upperBound, registers - 1) {
                        held[register] = .unknown
                    }
                    if instruction.a < registers { held[instruction.a] = result }
                    if result == .requestSource, pc + 1 < count, !entered[pc + 1],
                        let end = lifeEnd(ofLocalIn: instruction.a, from: pc)
                    {
                        steady.append((instruction.a, end))
                    }
                }
                // `LOADKX` takes the next instruction as its argument.
                pc += instruction.opcode == .loadConstantExtra ? 2 : 1
            }
            for read in nestedReads where !tested.contains(read.parent) {
                analysis.unguardedContextReads.append(
                    RuleAnalysis.Use(name: read.parent, file: file, line: read.line))
            }
        }

        /// What a finding is about.
        private enum Use {
            case global
            case field(String)
            case sourceComparison
            case contextRead
            case requestField
        }

        /// Where the life of the local that the instruction at `pc` starts in `register`
        /// ends, when nothing else writes that register while it lives and no closure
        /// captures it; `nil` otherwise. The caller checks that no jump enters at the
        /// local's start (`local t = c and ctx.kind or req.source` jumps past the read);
        /// Lua lets no jump enter a local's scope after that.
        private func lifeEnd(ofLocalIn register: Int, from pc: Int) -> Int? {
            // Locals are in the order they start: find the first that starts after `pc`.
            var low = 0
            var high = locals.count
            while low < high {
                let middle = (low + high) / 2
                if locals[middle].start <= pc { low = middle + 1 } else { high = middle }
            }
            guard low < locals.count, locals[low].start == pc + 1,
                let local = locals[low...].prefix(while: { $0.start == pc + 1 }).first(where: {
                    $0.register == register
                })
            else { return nil }
            for later in (pc + 1)..<min(local.end, count) {
                let instruction = instruction(at: later)
                if let written = instruction.writtenRegisters, written.contains(register) { return nil }
                if instruction.opcode == .closure, instruction.bx < nested.count,
                    nested[instruction.bx].contains(where: { $0.inStack && $0.index == register })
                {
                    return nil
                }
            }
            return local.end
        }
    }
}
