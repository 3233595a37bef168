import JunctionAuthoring
import JunctionCore
import Testing

@Suite struct RouteTableCanonicalJSONTests {
    /// Every field the YAML loader reads, every parameter type with a default, and `meta`
    /// with every kind of value.
    static let yaml = """
        options:
          hostAsPath: always
          plusAsSpace: false
          caseSensitive: false
          dispatchedSchemes: [https, Flutter]
        routes:
          - name: user.profile
            pattern: "myapp://user/:id(/:tab)"
            target: ProfilePage
            priority: 2
            groups: [social, login]
            exported: true
            description: A profile.
            params:
              id: { type: int, required: true, description: The id. }
              tab: { type: string, default: posts }
              ratio: { type: double, default: 1.5 }
              compact: { type: bool, default: true }
              token: { type: uuid, default: 0F5C3A5E-1111-4222-8333-444455556666 }
              page: { type: int, default: 3 }
            returns:
              followed: { type: bool, description: Whether the user followed. }
            meta: { owner: growth, weight: 2, share: 0.5, beta: true, tags: [a, b], none: null, empty: {} }
          - name: home
            pattern: myapp://home
          - name: files
            pattern: /files/**
            priority: -1
        """

    static let directory = "/bundles/shop"

    @Test func readsBackEveryRouteAndOption() throws {
        let table = try RouteTable.load(text: Self.yaml, file: Self.directory + "/routes.yaml")
        let json = try table.canonicalJSON(relativeTo: Self.directory)
        let back = try RouteTable(canonicalJSON: json, directory: Self.directory)
        #expect(back.options == table.options)
        #expect(back.routes == table.routes)
        #expect(back.routes.map(\.location) == table.routes.map(\.location))
        #expect(back.routes.map(\.patternLocation) == table.routes.map(\.patternLocation))
        #expect(back.routes[0].meta == table.routes[0].meta)
        #expect(try back.canonicalJSON(relativeTo: Self.directory) == json)
        for url in [
            "myapp://user/7", "myapp://USER/7/posts?x=1", "myapp://user/x", "myapp://files/a/b", "other://home",
        ] {
            let (a, b) = (try table.match(url), try back.match(url))
            #expect(a?.route.name == b?.route.name, "\(url)")
            #expect(a?.value("id") == b?.value("id") && a?.value("tab") == b?.value("tab"), "\(url)")
        }
        // Locations are written relative to the bundle: no path of the builder's disk.
        #expect(!String(decoding: json, as: UTF8.self).contains(Self.directory))
    }

    @Test func writesASmallTableExactly() throws {
        let table = try RouteTable.load(
            text:
                "routes:\n  - { name: home, pattern: \"myapp://home\", exported: true, params: { n: { type: double, default: 2 } } }\n",
            file: "b/routes.yaml")
        let text = String(decoding: try table.canonicalJSON(relativeTo: "b"), as: UTF8.self)
        #expect(
            text == #"{"options":{"caseSensitive":true,"dispatchedSchemes":[],"hostAsPath":"auto","plusAsSpace":true},"#
                + #""routes":[{"exported":true,"location":"routes.yaml:2:5","name":"home","#
                + #""params":[{"default":2.0,"name":"n","type":"double"}],"pattern":"myapp://home","#
                + #""pattern_location":"routes.yaml:2:29"}]}"#)
    }

    @Test(arguments: [
        ("b/c:d.yaml", #""location":"c:d.yaml:3:4""#),
        ("b/é:漢/ü.yaml", #""location":"é:漢/ü.yaml:3:4""#),
        // A combining accent after the colon: the colon is still found among the bytes.
        ("b/c:\u{301}.yaml", "\"location\":\"c:\u{301}.yaml:3:4\""),
    ])
    func keepsAColonInALocationsFile(file: String, written: String) throws {
        var route = Route(name: "home", pattern: "myapp://home")
        route.location = SourceLocation(file: file, line: 3, column: 4)
        let table = try RouteTable(routes: [route])
        let json = try table.canonicalJSON(relativeTo: "b")
        #expect(String(decoding: json, as: UTF8.self).contains(written))
        #expect(try RouteTable(canonicalJSON: json, directory: "b").routes[0].location == route.location)
    }

    static let refusals: [(String, String)] = [
        ("[]", "routes.json: the document: expected a route table (an object), found an array"),
        ("{}", #"routes.json: the document: missing "routes""#),
        (#"{"routes":[],"x":1}"#, "routes.json: x: unknown member; the document has options, routes"),
        (#"{"routes":[{"name":"a"}]}"#, #"routes.json: routes[0]: missing "pattern""#),
        // Route objects are read member by member, with no dictionary: refused as before.
        (
            #"{"routes":[{"name":"a","name":"b","pattern":"/a"}]}"#,
            #"routes.json: byte 23: the key "name" appears twice in one object"#
        ),
        (#"{"routes":12}"#, "routes.json: routes: expected an array, found 12"),
        (#"{"routes":[12]}"#, "routes.json: routes[0]: expected a route (an object), found 12"),
        (#"{"routes":[{"name":"a","pattern":"/a"},]}"#, "routes.json: byte 39: a trailing comma before ]"),
        (#"{"routes":[{"name":"a","pattern":"/a",}]}"#, "routes.json: byte 38: a trailing comma before }"),
        (#"{"routes":[{"name":"a","pattern":"/a"}]} x"#, "routes.json: byte 41: text after the JSON value"),
        (#"{"routes":[{"name":"a","pattern":12}]}"#, "routes.json: routes[0].pattern: expected text, found 12"),
        (
            #"{"routes":[{"name":"a","pattern":"/a","params":[{"name":"id","type":"integer"}]}]}"#,
            #"routes.json: routes[0].params[0].type: unknown parameter type "integer"; expected one of string, int, double, bool, uuid"#
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","params":[{"name":"id","type":"int","default":"7"}]}]}"#,
            #"routes.json: routes[0].params[0].default: expected a default of type int, found text "7""#
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","params":[{"name":"id","type":"double","default":7}]}]}"#,
            "routes.json: routes[0].params[0].default: expected a default of type double, found 7"
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","params":[{"name":"t","type":"uuid","default":"0F5C3A5E-1111-4222-8333-444455556666"}]}]}"#,
            #"routes.json: routes[0].params[0].default: expected a default of type uuid, found text "0F5C3A5E-1111-4222-8333-444455556666""#
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","groups":["x",1]}]}"#,
            "routes.json: routes[0].groups[1]: expected text, found 1"
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","priority":1.0}]}"#,
            "routes.json: routes[0].priority: expected an integer, found the float 1.0"
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","location":"r:0:1"}]}"#,
            #"routes.json: routes[0].location: "r:0:1" is not FILE:LINE:COLUMN with a line and a column from 1"#
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","pattern_location":"r:1:2:"}]}"#,
            #"routes.json: routes[0].pattern_location: "r:1:2:" is not FILE:LINE:COLUMN with a line and a column from 1"#
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","location":"é:1:x"}]}"#,
            #"routes.json: routes[0].location: "é:1:x" is not FILE:LINE:COLUMN with a line and a column from 1"#
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","location":{"file":"r"}}]}"#,
            "routes.json: routes[0].location: expected a location, FILE:LINE:COLUMN, found an object"
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","exported":"yes"}]}"#,
            #"routes.json: routes[0].exported: expected true or false, found text "yes""#
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","launch":"singletop"}]}"#,
            "routes.json: routes[0].launch: singletop is no launch mode; use one of standard, singleTop, singleTask"
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a","Meta":{}}]}"#,
            "routes.json: routes[0].Meta: unknown member; routes[0] has description, exported, groups, launch, location, meta, name, params, params_strict, pattern, pattern_location, priority, returns, target"
        ),
        (
            #"{"options":{"hostAsPath":"sometimes"},"routes":[]}"#,
            #"routes.json: options.hostAsPath: must be one of auto, always, never (got "sometimes")"#
        ),
        (
            #"{"routes":[{"name":"a","pattern":"/a"},{"name":"a","pattern":"/b"}]}"#,
            #"routes.json: routes: route "a": error: duplicate route name "a" (first declared at an earlier route); rename one"#
        ),
        (
            #"{"routes":[{"name":"a","pattern":"myapp://x/**/y"}]}"#,
            #"routes.json: routes: route "a": error: invalid pattern "myapp://x/**/y": "**" must be the last segment; use "*" for one segment in the middle"#
        ),
    ]

    /// Past sixteen members a route object's keys are checked against a set: a repeated one
    /// is still found, where it is.
    @Test func aKeyRepeatedPastSixteenMembersIsRefusedWhereItIs() {
        let members = (0..<20).map { #""k\#($0)":1"# } + [#""k3":2"#]
        let json = #"{"routes":[{"# + members.joined(separator: ",") + "}]}"
        let offset = json.utf8.count - #""k3":2}]}"#.utf8.count
        #expect {
            _ = try RouteTable(canonicalJSON: Array(json.utf8))
        } throws: { error in
            "\(error)" == #"routes.json: byte \#(offset): the key "k3" appears twice in one object"#
        }
    }

    @Test(arguments: refusals)
    func refusesATableWithItsPath(json: String, message: String) {
        do {
            _ = try RouteTable(canonicalJSON: Array(json.utf8))
            Issue.record("read \(json)")
        } catch {
            #expect(error.description == message)
        }
    }
}
