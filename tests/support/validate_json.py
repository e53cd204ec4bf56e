#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""validate_json.py SCHEMA FILE...: every JSON Lines object in each FILE (one
object a line; a .json FILE is one document) is valid against SCHEMA, a JSON
Schema 2020-12 document, itself checked against its meta-schema first. With
--expect-invalid, every object must instead be refused (the schema really
constrains). Uses python3-jsonschema (Debian); prints one line per problem;
exit 0 when all hold, 1 otherwise."""
import json
import sys

import jsonschema


def documents(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".json"):
        yield path, json.loads(text)
        return
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield f"{path}:{n}", json.loads(line)


def main(argv):
    expect_invalid = "--expect-invalid" in argv
    args = [a for a in argv if a != "--expect-invalid"]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.load(open(args[0], encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    problems = 0
    seen = 0
    for path in args[1:]:
        for where, document in documents(path):
            seen += 1
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
            if expect_invalid and not errors:
                print(f"{where}: accepted, but the schema should refuse it")
                problems += 1
            for error in [] if expect_invalid else errors:
                print(f"{where}: /{'/'.join(map(str, error.absolute_path))}: {error.message}")
                problems += 1
    if seen == 0:
        print("no JSON object to validate")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
