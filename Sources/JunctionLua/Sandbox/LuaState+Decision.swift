import JunctionCore
import Logging

extension LuaState {
    /// Starts a decision: until ``endDecision()``, every evaluation draws on one budget of
    /// ``SandboxLimits/decisionInstructions`` and one allowance of log output.
    /// - Returns: Whether this call started it; `false` inside a decision already begun,
    ///   which then goes on (only the call that started a decision ends it).
    func beginDecision() -> Bool {
        guard context.pointee.decisionLeft == .max else { return false }
        context.pointee.decisionLeft = context.pointee.limits.decisionInstructions
        context.pointee.restartClock()
        output = OutputAllowance(limits: context.pointee.limits)
        return true
    }

    /// Gives rules a fresh allowance of log output, for a unit of work that is not a
    /// decision (``RuleEngine/withArguments(_:_:)``); inside a decision, nothing changes.
    /// - Returns: Whether the allowance was renewed, so the caller reports what it dropped.
    func beginOutput() -> Bool {
        guard context.pointee.decisionLeft == .max else { return false }
        output = OutputAllowance(limits: context.pointee.limits)
        return true
    }

    /// Ends the decision ``beginDecision()`` started, and logs one line for the output
    /// it dropped, if any.
    func endDecision() {
        context.pointee.decisionLeft = .max
        reportDroppedOutput()
    }

    /// Logs the line that says how much rule output was dropped, if any was.
    func reportDroppedOutput() {
        if let report = output.takeDropReport() { logHandler(.warning, report) }
    }

    /// Hands a line of rule output to the print handler (`level` nil) or the log
    /// handler, within the decision's allowance.
    func emit(_ line: String, level: Logger.Level?) {
        guard let admitted = output.admit(line) else { return }
        if let level { logHandler(level, admitted) } else { printHandler(admitted) }
    }
}
