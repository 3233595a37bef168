/// The fields of `req`, each with the user-value slot of the request userdata that
/// caches it once built.
enum RequestField: Int32, CaseIterable {
    case url = 1, scheme, host, path, segments, params, query, exts, source, route

    /// The name rules write: `req.url`.
    var name: StaticString {
        switch self {
        case .url: "url"
        case .scheme: "scheme"
        case .host: "host"
        case .path: "path"
        case .segments: "segments"
        case .params: "params"
        case .query: "query"
        case .exts: "exts"
        case .source: "source"
        case .route: "route"
        }
    }

    /// The field a key names, compared byte for byte; `nil` for any other key.
    init?(key: UnsafeRawBufferPointer) {
        for field in Self.allCases {
            let name = field.name
            if name.utf8CodeUnitCount == key.count,
                key.elementsEqual(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)) {
                self = field
                return
            }
        }
        return nil
    }
}
