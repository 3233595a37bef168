public import JunctionCore

extension Decision {
    /// The request as one line of a corpus — what `junction eval --urls` and
    /// `junction diff --urls` read, so a week of real traffic can be decided again under
    /// tonight's bundle before it ships:
    ///
    /// ```json
    /// {"context":{"app_version":"6.0.0","user":{"id":7}},"params":{"tab":"likes"},"source":"push","url":"myapp://user/42"}
    /// ```
    ///
    /// Canonical JSON (keys sorted, no spaces), without a line break. `params` are the
    /// caller's rule-value parameters (model objects never reach a rule, nor the line);
    /// `context` is what you pass — the router's ``Router/context`` at the time of the
    /// decision, or less: it is user data, so export only the keys rules read, and what
    /// your privacy policy lets you keep.
    ///
    /// ```swift
    /// router.decisionObserver = { [unowned router] decision in
    ///     if let line = decision.corpusLine(context: router.context, sampling: 0.01) { linkLog.append(line) }
    /// }
    /// ```
    /// - Parameter context: The context the request was decided in.
    /// - Returns: The line, or `nil` when a value cannot be written as JSON (NaN, an
    ///   infinity, bytes that are not UTF-8).
    public func corpusLine(context: ContextSnapshot) -> String? {
        var fields: [String: RuleValue] = ["url": .string(request.url), "source": .string(request.source.rawValue)]
        if !request.params.isEmpty { fields["params"] = .table(request.params) }
        if !context.values.isEmpty { fields["context"] = .table(context.values) }
        guard let bytes = try? CanonicalJSON.encode(.table(fields)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``corpusLine(context:)`` for a random share of decisions: each is kept with
    /// probability `sampling`, drawn from the system's generator, so the export of a busy
    /// app stays small and unbiased.
    /// - Parameters:
    ///   - context: The context the request was decided in.
    ///   - sampling: The share kept, from 0 (none) to 1 (all).
    /// - Returns: The line, or `nil` when this decision is not in the sample or cannot be
    ///   written.
    public func corpusLine(context: ContextSnapshot, sampling: Double) -> String? {
        guard sampling >= 1 || Double.random(in: 0..<1) < sampling else { return nil }
        return corpusLine(context: context)
    }
}
