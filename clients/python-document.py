"""Rewrites the OpenAPI document into the shape openapi-python-client can generate whole.

    python3 clients/python-document.py docs/openapi.json > document.json

The meaning stays the same; only the form changes, in two ways that work around the
generator's limits (0.29): without them it drops `StoredEvent`, `AgentEvent` and
`ToolView`, and every operation answering them loses its typed response.

- An `allOf` of objects (`ToolView`'s code variant: `CodeCell` plus its `kind`) becomes
  one object with the parts' properties: the generator cannot resolve a `$ref` inside an
  `allOf` that sits in a union.
- A `oneOf` of objects inside such an `allOf` (the tool event's typed call: a variant per
  tool) counts as the one object its variants share: their common properties, a string
  where every variant has one and any value otherwise.
- Each inline object variant of a component's `oneOf` becomes a component of its own,
  named after the component and its tag (`ToolView` + `kind: shell` → `ToolViewShell`):
  inline variants with nested objects are parsed twice and then refused as duplicates.
  It also gives the Python classes readable names.
"""

import json
import sys


def pascal(word):
    return "".join(part[:1].upper() + part[1:] for part in word.replace("-", "_").split("_"))


def shared_object(variants):
    """The properties every variant has, each a string where every variant's is one."""
    names = set.intersection(*(set(variant.get("properties", {})) for variant in variants))
    required = set.intersection(*(set(variant.get("required", [])) for variant in variants))
    properties = {
        name: {"type": "string"}
        if all(variant["properties"][name].get("type") == "string" for variant in variants)
        else {}
        for name in sorted(names)
    }
    return {"type": "object", "properties": properties, "required": sorted(required & names)}


def merge_all_of(node, schemas):
    if isinstance(node, list):
        return [merge_all_of(item, schemas) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: merge_all_of(value, schemas) for key, value in node.items()}
    if "allOf" not in node:
        return node
    merged = {"type": "object", "properties": {}, "required": []}
    for part in node.pop("allOf"):
        if "$ref" in part:
            part = schemas[part["$ref"].rsplit("/", 1)[1]]
        if "oneOf" in part and all(variant.get("type") == "object" for variant in part["oneOf"]):
            part = shared_object(part["oneOf"])
        if part.get("type") != "object" or any(key in part for key in ("allOf", "oneOf", "anyOf")):
            sys.exit(f"python-document.py: cannot merge this allOf part: {json.dumps(part)[:300]}")
        for name, schema in part.get("properties", {}).items():
            if merged["properties"].get(name, schema) != schema:
                sys.exit(f"python-document.py: allOf parts disagree on property {name!r}")
            merged["properties"][name] = schema
        merged["required"] += [name for name in part.get("required", []) if name not in merged["required"]]
    merged.update(node)
    return merged


def tag_of(variant):
    """The value of the one required single-valued enum property (the serde tag), if any."""
    tags = [
        schema["enum"][0]
        for name, schema in variant.get("properties", {}).items()
        if name in variant.get("required", []) and len(schema.get("enum", [])) == 1
    ]
    return tags[0] if len(tags) == 1 else None


def hoist_variants(schemas):
    for name in list(schemas):
        variants = schemas[name].get("oneOf", [])
        for index, variant in enumerate(variants):
            if variant.get("type") != "object":
                continue
            tag = tag_of(variant)
            hoisted = name + (pascal(str(tag)) if tag is not None else f"Variant{index}")
            if hoisted in schemas:
                sys.exit(f"python-document.py: {name}'s variant would be {hoisted}, which exists")
            schemas[hoisted] = variant
            variants[index] = {"$ref": f"#/components/schemas/{hoisted}"}


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        document = json.load(file)
    schemas = document["components"]["schemas"]
    document["components"]["schemas"] = schemas = merge_all_of(schemas, schemas)
    hoist_variants(schemas)
    json.dump(document, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
