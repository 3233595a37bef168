internal import Foundation  // memcmp

/// The fields of `req`, each with the user-value slot of the request userdata that
/// caches it once built.
enum RequestField: Int32, CaseIterable {
    case url = 1
    case scheme, host, path, segments, params, query, exts, source, route

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
        // Every name differs from the others of its length in its first byte.
        guard let first = key.first else { return nil }
        let candidate: Self
        switch (key.count, first) {
        case (3, UInt8(ascii: "u")): candidate = .url
        case (6, UInt8(ascii: "s")): candidate = key[1] == UInt8(ascii: "c") ? .scheme : .source
        case (4, UInt8(ascii: "h")): candidate = .host
        case (4, UInt8(ascii: "p")): candidate = .path
        case (8, UInt8(ascii: "s")): candidate = .segments
        case (6, UInt8(ascii: "p")): candidate = .params
        case (5, UInt8(ascii: "q")): candidate = .query
        case (4, UInt8(ascii: "e")): candidate = .exts
        case (5, UInt8(ascii: "r")): candidate = .route
        default: return nil
        }
        let name = candidate.name
        guard memcmp(key.baseAddress!, name.utf8Start, key.count) == 0 else { return nil }
        self = candidate
    }
}
