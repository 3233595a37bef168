extension AppRoutes {
    /// The Swift interceptors the app added at run time, in the order added. A decider runs
    /// them after those it was made with (``Decider/interceptors``, an acceptance policy's),
    /// by the same priority rules; one with the name of those is left out.
    public var interceptors: [SwiftInterceptor] { interceptorEntries.map(\.interceptor) }

    /// Adds a Swift interceptor after those already added.
    /// - Parameter interceptor: The interceptor; its name must be new in the layer.
    /// - Returns: Whether it was added (`false` when the name is taken; nothing changes).
    @discardableResult
    public mutating func addInterceptor(_ interceptor: SwiftInterceptor) -> Bool {
        guard !interceptorEntries.contains(where: { $0.interceptor.name == interceptor.name }) else { return false }
        interceptorEntries.append(InterceptorEntry(interceptor: interceptor))
        return true
    }

    /// Removes the Swift interceptor named `name`.
    /// - Parameter name: Its name.
    /// - Returns: The interceptor removed, or `nil` when the layer has none of that name.
    @discardableResult
    public mutating func removeInterceptor(named name: String) -> SwiftInterceptor? {
        guard let index = interceptorEntries.firstIndex(where: { $0.interceptor.name == name }) else { return nil }
        return interceptorEntries.remove(at: index).interceptor
    }
}
