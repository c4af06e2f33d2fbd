#!/usr/bin/env python3
"""Validates TrustSuite vector files against schemas/trustsuite-vectors.schema.json.

Usage: validate.py [--schemas DIR] PATH...   (files, or folders searched for *.json)

Every schema under the schemas folder is registered by its $id, so the entry
point's references to families/*.schema.json resolve without a network.
Prints one line per file that does not validate (with each error's place) and
a closing count; exit status 0 when every file validates, 1 otherwise, 2 on a
usage error.
"""
import json
import pathlib
import sys

try:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
except ImportError as error:  # the pinned packages of Adapters/requirements.txt
    print(f"validate.py: {error}: install jsonschema (Adapters/requirements.txt)", file=sys.stderr)
    sys.exit(2)

ENTRY = "trustsuite-vectors.schema.json"


def validator(folder: pathlib.Path) -> Draft202012Validator:
    resources = []
    for path in sorted(folder.rglob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry = Registry().with_resources(resources)
    entry = json.loads((folder / ENTRY).read_text(encoding="utf-8"))
    return Draft202012Validator(entry, registry=registry)


def files(paths):
    for name in paths:
        path = pathlib.Path(name)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.json") if p.is_file())
        else:
            yield path


def main(argv):
    folder = pathlib.Path(__file__).resolve().parent
    if argv[:1] == ["--schemas"]:
        if len(argv) < 2:
            print("validate.py: --schemas needs a folder", file=sys.stderr)
            return 2
        folder, argv = pathlib.Path(argv[1]), argv[2:]
    if not argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    check = validator(folder)
    good = bad = 0
    for path in files(argv):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            print(f"{path}: cannot read: {error}")
            bad += 1
            continue
        errors = sorted(check.iter_errors(document), key=lambda e: list(e.absolute_path))
        if errors:
            bad += 1
            for error in errors[:20]:
                place = "/".join(str(p) for p in error.absolute_path) or "(top level)"
                print(f"{path}: {place}: {error.message[:300]}")
        else:
            good += 1
    print(f"schema: {good} files valid, {bad} invalid")
    return 0 if bad == 0 and good > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
