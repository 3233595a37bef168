/// What a request userdata stands for: `req` itself or one of its maps. `req.params`,
/// `req.query`, `req.exts` and `req.route` are views too, so reading `req.params.id`
/// converts one value, not the whole table.
enum RequestView: Int, CaseIterable {
    case request = 0
    case params, query, exts, route

    /// How rules name it: `req`, `req.params`, …
    var name: StaticString {
        switch self {
        case .request: "req"
        case .params: "req.params"
        case .query: "req.query"
        case .exts: "req.exts"
        case .route: "req.route"
        }
    }

    /// The view a field of `req` is, if it is one.
    init?(field: RequestField) {
        switch field {
        case .params: self = .params
        case .query: self = .query
        case .exts: self = .exts
        case .route: self = .route
        default: return nil
        }
    }
}
