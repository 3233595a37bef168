/// One side of a comparison: a name and a body that runs a number of iterations of a
/// known number of operations each.
struct Contender {
    /// The measurement's name, `group.contender` (`match.junction`).
    var name: String
    /// The size it runs at (for `match`, the number of routes).
    var n: Int
    /// Operations one iteration performs.
    var operationsPerIteration: Int
    /// Runs the given number of iterations and returns a value computed from every
    /// result, so the optimiser cannot drop the work.
    var body: (Int) -> Int
    /// Runs after each timed call of `body`, untimed: what the measured operation leaves
    /// behind and a real caller would never pay for in its place (a launch's teardown).
    var afterEachCall: () -> Void = {}
}
