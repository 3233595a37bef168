"""What a device links: the products an app ships reach no authoring or tooling code.

Reads `swift package describe --type json` on stdin and follows every target's
`target_dependencies` (and, at each target, its `product_dependencies`), transitively,
from each device product's targets. The rules:

- no device product reaches YAML (`CLibYAML`, `JunctionAuthoring`) or the checker and the
  diff (`JunctionTooling`);
- the router (`Junction`) reaches no shipping: not `JunctionShipping`, `JunctionArtifact`,
  `CCurl`, zlib (`CZlib`, which compresses the decision log's uploads) or swift-crypto's
  `Crypto` — an app that ships its bundle inside itself links no downloader, no
  compressor and no signature code;
- the artifact (`JunctionArtifact`) reaches no router.

Exit 0 when every rule holds; 1, naming each path (`Junction -> JunctionCore -> CLibYAML`),
when one does not, or when a device product is missing from the description (a rename
must not make the check pass by checking nothing).

`--self-test` checks the checker instead: on the description it is given it must pass,
and on copies doctored to break each rule (directly, through another target, three steps
away through a cycle, through a product dependency) or with a device product renamed
away, it must fail with exactly the expected paths.
"""

import copy
import json
import sys

# What no product an app ships may reach: YAML, authoring, tooling.
AUTHORING = ("CLibYAML", "JunctionAuthoring", "JunctionTooling")
# The shipping side the router does without.
SHIPPING = ("JunctionShipping", "JunctionArtifact", "CCurl", "CZlib", "Crypto")
# Each device product, and what it must not reach.
RULES = {
    "Junction": AUTHORING + SHIPPING,
    "JunctionShipping": AUTHORING,
    "JunctionArtifact": AUTHORING + ("Junction", "JunctionShipping"),
    "JunctionSwiftUI": AUTHORING + SHIPPING,
}
DEVICE_PRODUCTS = tuple(RULES)


def forbidden_paths(description, rules=RULES):
    """Every problem as a line: a path from a device product to a target (or product) it
    must not reach, or a device product the description lacks. Empty when all hold."""
    targets = {t["name"]: t for t in description.get("targets", [])}
    by_name = {p["name"]: p for p in description.get("products", [])}
    problems = []
    for product, forbidden in rules.items():
        if product not in by_name:
            problems.append(f"product {product} is not in the package description")
            continue
        # Breadth first, so each forbidden name is reported by its shortest path.
        paths = {name: [product] + ([name] if name != product else []) for name in by_name[product]["targets"]}
        queue = list(by_name[product]["targets"])
        reported = set()
        while queue:
            name = queue.pop(0)
            if name in forbidden:
                if name not in reported:
                    reported.add(name)
                    problems.append(f"{' -> '.join(paths[name])}: product {product} links {name}")
                continue
            entry = targets.get(name, {})
            for dependency in entry.get("target_dependencies", []) + entry.get("product_dependencies", []):
                if dependency not in paths:
                    paths[dependency] = paths[name] + [dependency]
                    queue.append(dependency)
    return problems


def self_test(description):
    """Runs the checker on `description` and doctored copies; returns the failures."""

    def doctored(target, dependency):
        copied = copy.deepcopy(description)
        for entry in copied["targets"]:
            if entry["name"] == target:
                entry.setdefault("target_dependencies", []).append(dependency)
        return copied

    def with_product(target, product):
        copied = copy.deepcopy(description)
        for entry in copied["targets"]:
            if entry["name"] == target:
                entry.setdefault("product_dependencies", []).append(product)
        return copied

    cases = [
        ("the package as it is", description, []),
        (
            "JunctionCore depends on CLibYAML",
            doctored("JunctionCore", "CLibYAML"),
            [
                "Junction -> JunctionCore -> CLibYAML: product Junction links CLibYAML",
                "JunctionShipping -> Junction -> JunctionCore -> CLibYAML: product JunctionShipping links CLibYAML",
                "JunctionArtifact -> JunctionCore -> CLibYAML: product JunctionArtifact links CLibYAML",
                "JunctionSwiftUI -> Junction -> JunctionCore -> CLibYAML: product JunctionSwiftUI links CLibYAML",
            ],
        ),
        (
            "Junction depends on JunctionAuthoring",
            doctored("Junction", "JunctionAuthoring"),
            [
                "Junction -> JunctionAuthoring: product Junction links JunctionAuthoring",
                "JunctionShipping -> Junction -> JunctionAuthoring: product JunctionShipping links JunctionAuthoring",
                "JunctionSwiftUI -> Junction -> JunctionAuthoring: product JunctionSwiftUI links JunctionAuthoring",
            ],
        ),
        (
            "JunctionShipping depends on JunctionTooling",
            doctored("JunctionShipping", "JunctionTooling"),
            ["JunctionShipping -> JunctionTooling: product JunctionShipping links JunctionTooling"],
        ),
        (
            "JunctionLua depends on JunctionArtifact (the router reaches shipping)",
            doctored("JunctionLua", "JunctionArtifact"),
            [
                "Junction -> JunctionLua -> JunctionArtifact: product Junction links JunctionArtifact",
                "JunctionSwiftUI -> Junction -> JunctionLua -> JunctionArtifact: product JunctionSwiftUI links "
                "JunctionArtifact",
            ],
        ),
        (
            "JunctionCore uses swift-crypto's Crypto product",
            with_product("JunctionCore", "Crypto"),
            [
                "Junction -> JunctionCore -> Crypto: product Junction links Crypto",
                "JunctionSwiftUI -> Junction -> JunctionCore -> Crypto: product JunctionSwiftUI links Crypto",
            ],
        ),
        (
            "JunctionLua depends on JunctionTooling (three steps, and a cycle through Junction)",
            doctored("JunctionLua", "JunctionTooling"),
            [
                "Junction -> JunctionLua -> JunctionTooling: product Junction links JunctionTooling",
                "JunctionShipping -> Junction -> JunctionLua -> JunctionTooling: product JunctionShipping links "
                "JunctionTooling",
                "JunctionSwiftUI -> Junction -> JunctionLua -> JunctionTooling: product JunctionSwiftUI links "
                "JunctionTooling",
            ],
        ),
        (
            "the Junction product is renamed",
            {**description, "products": [p for p in description["products"] if p["name"] != "Junction"]},
            ["product Junction is not in the package description"],
        ),
    ]
    failures = []
    for name, case, expected in cases:
        found = forbidden_paths(case)
        if found != expected:
            failures.append(f"{name}: expected {expected}, found {found}")
    return failures


def main(arguments):
    description = json.load(sys.stdin)
    if arguments == ["--self-test"]:
        failures = self_test(description)
        for failure in failures:
            print(f"check-linkage self-test failed: {failure}", file=sys.stderr)
        if not failures:
            print("check-linkage self-test: passes the package, fails each doctored copy with its path")
        return 1 if failures else 0
    if arguments:
        print("usage: check_linkage.py [--self-test] < description.json", file=sys.stderr)
        return 2
    problems = forbidden_paths(description)
    for problem in problems:
        print(f"check-linkage: {problem}", file=sys.stderr)
    if not problems:
        for product, forbidden in RULES.items():
            print(f"check-linkage: {product} links none of {', '.join(forbidden)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
