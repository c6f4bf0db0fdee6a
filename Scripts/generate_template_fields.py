#!/usr/bin/env python3
"""Writes the template fields of the view models in one Render/<Kind>Models.swift.

Each view model is declared once, as a struct or final class in Render/*Models.swift. Templates
look a field up by name; the generated switch turns that name into a direct read of the stored
property, which the compiler makes a jump (no reflection, no dictionary). Every stored
`package let` or `package var` of a model is a field; a stored closure (`@Sendable () -> T`) is
called when read.

The build runs it (Plugins/TemplateFields) for each models file; its output is not kept in git.

Usage: python3 Scripts/generate_template_fields.py MODELS.swift OUTPUT.swift
"""
import os
import re
import sys


TYPE = re.compile(r"^(\s*)package (?:final class|struct) (\w+)(?:<[^>]*>)?\s*:")
STORED = re.compile(r"^\s*package (?:let|var) (\w+)\s*:\s*([^={]+?)\s*(?:=[^{]*)?$")


def models(path):
    """(qualified name, [(field, is a closure)]) for each model declared in `path`, in order."""
    found, stack = [], []
    for line in open(path):
        if line.strip() == "}" and stack and len(line) - len(line.lstrip()) == stack[-1][0]:
            stack.pop()
            continue
        match = TYPE.match(line)
        if match and match.group(2).endswith(("Model", "Item", "Link", "Section")):
            indent = len(match.group(1))
            outer = stack[-1][1] + "." if stack else ""
            entry = (outer + match.group(2), [])
            found.append(entry)
            stack.append((indent, entry[0], entry[1]))
            continue
        field = STORED.match(line)
        if field and stack and len(line) - len(line.lstrip()) == stack[-1][0] + 4:
            stack[-1][2].append((field.group(1), "->" in field.group(2)))
    return found


def generate(path):
    parts = [f"// Generated at build time by Scripts/generate_template_fields.py from {os.path.basename(path)}.",
             "// Templates look values up by name through these switches, which the compiler turns into",
             "// direct reads of each stored property.",
             "",
             "import TeardownContent",
             ""]
    for name, fields in models(path):
        cases = "\n".join(f'        case "{field}": self.{field}{"()" if closure else ""}.templateValue'
                          for field, closure in fields)
        parts.append(f"""extension {name}: TemplateObject, TemplateRepresentable {{
    package func value(named name: String) -> TemplateValue {{
        switch name {{
{cases}
        default: .missing
        }}
    }}
}}
""")
    return "\n".join(parts)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, output = sys.argv[1:]
    text = generate(source)
    # Written only when it differs, so an unchanged model recompiles nothing.
    if not os.path.exists(output) or open(output).read() != text:
        with open(output, "w") as file:
            file.write(text)


if __name__ == "__main__":
    main()
