import Junction

/// Stands between the router and the presenter under test: hands each transition on,
/// and notes what breaks the contract — a transition started over another, a completion
/// called twice or for nothing, one that never comes.
@MainActor
final class ConformanceProbe: Presenter {
    let subject: any InspectablePresenter
    /// The transition the subject is showing, and when it was handed over.
    private(set) var inFlight: (description: String, since: ContinuousClock.Instant)?
    private var issued = 0
    private(set) var problems: [String] = []

    init(_ subject: any InspectablePresenter) { self.subject = subject }

    func apply(_ transition: Transition, animated: Bool, completion: @escaping @MainActor () -> Void) {
        let description = HeadlessPresenter.describe(transition)
        if let running = inFlight {
            problems.append("\(description) started while \(running.description) was still running")
        }
        issued += 1
        let number = issued
        inFlight = (description, .now)
        var completed = false
        subject.apply(transition, animated: animated) { [weak self] in
            guard let self else { return }
            guard !completed else {
                self.problems.append("\(description): completion called more than once")
                return
            }
            completed = true
            if number == self.issued { self.inFlight = nil }
            completion()
        }
    }

    /// Takes the problems noted so far.
    func takeProblems() -> [String] {
        defer { problems = [] }
        return problems
    }
}
