"""What a device links: no product an app ships may reach the YAML library.

Reads `swift package describe --type json` on stdin and follows every target's
`target_dependencies`, transitively, from each device product's targets. Exit 0 when
none reaches a forbidden target; 1, naming each path (`Junction -> JunctionCore ->
CLibYAML`), when one does, or when a device product is missing from the description
(a rename must not make the check pass by checking nothing).

`--self-test` checks the checker instead: on the description it is given it must pass,
and on copies doctored to reach CLibYAML directly, through JunctionCore, through
JunctionAuthoring, three steps away through a cycle, or with a device product renamed
away, it must fail with exactly the expected paths.
"""

import copy
import json
import sys

# The products an app links to run bundles from artifacts.
DEVICE_PRODUCTS = ("Junction", "JunctionArtifact")
# What authoring links and a device must not.
FORBIDDEN = ("CLibYAML",)


def forbidden_paths(description, products=DEVICE_PRODUCTS, forbidden=FORBIDDEN):
    """Every problem as a line: a path from a device product to a forbidden target, or a
    device product the description lacks. Empty when the products link cleanly."""
    targets = {t["name"]: t for t in description.get("targets", [])}
    by_name = {p["name"]: p for p in description.get("products", [])}
    problems = []
    for product in products:
        if product not in by_name:
            problems.append(f"product {product} is not in the package description")
            continue
        # Breadth first, so each forbidden target is reported by its shortest path.
        paths = {name: [product] + ([name] if name != product else []) for name in by_name[product]["targets"]}
        queue = list(by_name[product]["targets"])
        reported = set()
        while queue:
            name = queue.pop(0)
            if name in forbidden and name not in reported:
                reported.add(name)
                problems.append(f"{' -> '.join(paths[name])}: product {product} links {name}")
                continue
            for dependency in targets.get(name, {}).get("target_dependencies", []):
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

    cases = [
        ("the package as it is", description, []),
        (
            "JunctionCore depends on CLibYAML",
            doctored("JunctionCore", "CLibYAML"),
            [
                "Junction -> JunctionCore -> CLibYAML: product Junction links CLibYAML",
                "JunctionArtifact -> JunctionCore -> CLibYAML: product JunctionArtifact links CLibYAML",
            ],
        ),
        (
            "Junction depends on JunctionAuthoring",
            doctored("Junction", "JunctionAuthoring"),
            ["Junction -> JunctionAuthoring -> CLibYAML: product Junction links CLibYAML"],
        ),
        (
            "JunctionArtifact depends on CLibYAML itself",
            doctored("JunctionArtifact", "CLibYAML"),
            [
                "Junction -> JunctionArtifact -> CLibYAML: product Junction links CLibYAML",
                "JunctionArtifact -> CLibYAML: product JunctionArtifact links CLibYAML",
            ],
        ),
        (
            "JunctionLua depends on JunctionAuthoring (three steps, and a cycle)",
            doctored("JunctionLua", "JunctionAuthoring"),
            ["Junction -> JunctionLua -> JunctionAuthoring -> CLibYAML: product Junction links CLibYAML"],
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
        print(f"check-linkage: {problem}; YAML belongs to JunctionAuthoring", file=sys.stderr)
    if not problems:
        print(f"check-linkage: {', '.join(DEVICE_PRODUCTS)} link none of {', '.join(FORBIDDEN)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
