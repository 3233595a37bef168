import Foundation

/// The shape of the benchmark's generated bundle (`Benchmarks/…/PolicyBundleGenerator.swift`,
/// a package the tests cannot import): 1,000 routes over 100 modules and two schemes, 20
/// declared redirects, a global interceptor, the `login` group's policy and a route
/// interceptor naming 400 routes.
enum GeneratedPolicyBundle {
    static let moduleCount = 100

    static var routesYAML: String {
        var lines = ["routes:"]
        for i in 0..<moduleCount {
            let m = "module\(i)"
            func add(_ suffix: String, _ path: String, groups: [String] = [], exported: Bool) {
                var line = "  - { name: \(m).\(suffix), pattern: \"myapp://\(m)\(path)\""
                if !groups.isEmpty { line += ", groups: [\(groups.joined(separator: ", "))]" }
                if exported { line += ", exported: true" }
                lines.append(line + " }")
            }
            add("home", "", exported: true)
            add("list", "/list", exported: true)
            add("item", "/item/:id", groups: ["login"], exported: true)
            add("comments", "/item/:id/comments", groups: ["login"], exported: true)
            add("edit", "/item/:id/edit", groups: ["login"], exported: false)
            add("user", "/user/:uid", exported: true)
            add("settings", "/settings", groups: ["login"], exported: false)
            add("search", "/search", exported: true)
            add("order", "/order/:id", groups: ["login", "payment"], exported: false)
            lines.append(
                "  - { name: \(m).article, pattern: \"https://m.example.com/\(m)/article/:slug\", exported: true }")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `from` and `to` of the 20 redirects.
    static var redirects: [(from: String, to: String)] {
        (0..<10).map { ("myapp://old/module\($0 * 10 + 3)/item/:id", "myapp://module\($0 * 10 + 3)/item/{id}") }
            + (0..<5).map {
                ("myapp://legacy/module\($0 * 20 + 5)/orders/:id", "myapp://module\($0 * 20 + 5)/order/{id}")
            }
            + (0..<5).map { ("myapp://promo/spring\($0)", "myapp://module\($0 * 20 + 11)/item/\(700 + $0)") }
    }

    static var policiesLua: String {
        let checked = (0..<moduleCount).flatMap { i in
            ["item", "comments", "edit", "order"].map { "\"module\(i).\($0)\"" }
        }
        return """
            function audit(req, ctx)
              if ctx.banned then return reject("banned", 451) end
              if req.source == "h5" and not req.route.exported then return reject("not for H5 pages", 403) end
            end
            function require_login(req, ctx)
              if not ctx.user then return gate("myapp://login") end
            end
            function check_id(req, ctx)
              local id = req.params.id
              if id == nil or #id > 12 then return reject("bad id", 400) end
            end
            interceptor { name = "audit", all = true, priority = 10, run = audit }
            group("login", require_login)
            interceptor { name = "check-id", run = check_id, routes = { \(checked.joined(separator: ", ")) } }

            """
    }

    /// Writes the bundle under a new temporary folder.
    /// - Returns: The folder.
    static func write() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("junction-generated-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let redirectsLua = redirects.map { "redirect { from = \"\($0.from)\", to = \"\($0.to)\" }\n" }.joined()
        for (name, text) in [
            ("manifest.yaml", "name: bench-policy\nversion: 1\n"), ("routes.yaml", routesYAML),
            ("redirects.lua", redirectsLua), ("policies.lua", policiesLua),
        ] {
            try text.write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        return folder.path
    }
}
