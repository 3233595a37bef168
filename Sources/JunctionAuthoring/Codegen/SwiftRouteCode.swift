public import JunctionCore

/// A route table as Swift: for each route, a function that builds its URL from typed,
/// labelled parameters, and its name as a constant — so apps stop writing URL strings by
/// hand, and a renamed parameter or a removed route breaks the build, not a link.
///
/// ```swift
/// Routes.userProfile(id: 42)                   // "myapp://user/42"
/// Routes.userProfile(id: 42, tab: "likes")     // "myapp://user/42?tab=likes"
/// Routes.moments()                             // "myapp://moments"  (an optional group left out)
/// Routes.Name.userProfile                      // "user.profile"
/// ```
///
/// - Path parameters are arguments of their declared type (`int` → `Int`, `double` →
///   `Double`, `bool` → `Bool`, `uuid` → `UUID`, else `String`); those inside an optional
///   group are optional (`nil` leaves the group out). Giving a nested group's parameter
///   without its parent's is a programmer error (`preconditionFailure`).
/// - Declared parameters the pattern does not hold are query arguments: required ones
///   plain, ones with a default take it as their default (a value equal to it is left out
///   of the URL: the router supplies it), others are optional.
/// - `*` is an argument `segment` (`segment2`…), `**` an argument `rest`: a path whose
///   segments are encoded one by one. A pattern without a scheme (any scheme) takes an
///   `origin`: `"myapp://"` (the host read as a path) or `"https://example.com"`.
/// - Every segment and query component is percent-encoded but RFC 3986's unreserved
///   characters, so the router decodes each back to the value given. A parameter with a
///   regex (`:orderId([A-Z]{2}[0-9]{6})`) is not checked: its documentation says the regex.
///
/// The output depends only on the table and the options (routes in the table's order), so
/// it can be generated in CI and compared.
public enum SwiftRouteCode {
    /// The Swift source for `table`.
    /// - Parameters:
    ///   - table: The route table.
    ///   - source: The table's file name, for the header and documentation.
    ///   - options: The type's name, access and the command for the header.
    /// - Returns: The file's text.
    /// - Throws: ``SwiftRouteCodeError`` when two routes (or two parameters of a route)
    ///   would have the same Swift name, or a name has no letter or digit.
    public static func generate(_ table: RouteTable, source: String, options: SwiftRouteCodeOptions)
        throws(SwiftRouteCodeError) -> String
    {
        guard SwiftIdentifier.lowerCamel(options.typeName, prefix: "T") != nil,
            options.typeName.first?.isUppercase == true,
            options.typeName.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else {
            throw SwiftRouteCodeError(
                "--type-name \(options.typeName): a Swift type name is letters and digits, starting with a capital")
        }
        var plans: [SwiftRoutePlan] = []
        var byIdentifier: [String: String] = [:]
        for index in table.routes.indices {
            guard let structure = table.structure(ofRouteAt: index) else { continue }
            let plan = try SwiftRoutePlan(table.routes[index], structure: structure)
            if let other = byIdentifier[plan.identifier] {
                throw SwiftRouteCodeError(
                    "routes \"\(other)\" and \"\(plan.route.name)\" would both be \(options.typeName).\(plan.identifier); rename one of them"
                )
            }
            byIdentifier[plan.identifier] = plan.route.name
            plans.append(plan)
        }
        var writer = SwiftRouteWriter(access: options.access.rawValue, typeName: options.typeName)
        return writer.file(plans, source: source, command: options.command)
    }
}
