#!/usr/bin/env python3
"""Writes the levels' Elo table of src/games/strength.rs into docs/strength.md and
protocol/PROTOCOL.md, between their `<!-- levels table -->` markers.

    scripts/levels-table.py

Run it after a calibration changed strength.rs; the test `the_documents_give_the_measured_levels`
(tests/suite/skill.rs) fails while a document and strength.rs disagree.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The tables of strength.rs, in the order of Variant::ALL, with their column titles.
COLUMNS = [("LIELOW", "Lielow"), ("LIELOW9", "Lielow 9x9"),
           ("EGARAGUTI", "Egara-guti"), ("LERONTENIN", "Lerontenin")]
START, END = "<!-- levels table -->", "<!-- end of levels table -->"


def measured():
    source = (ROOT / "src/games/strength.rs").read_text()
    tables = []
    for name, _ in COLUMNS:
        body = re.search(r"const %s: LevelElo = \[([^\]]*)\]" % name, source)
        if body is None:
            raise SystemExit("strength.rs: no table %s" % name)
        tables.append([int(n) for n in re.findall(r"\d+", body.group(1))])
    return tables


def table(tables):
    rows = ["| level | %s |" % " | ".join(title for _, title in COLUMNS),
            "|---|" + "---:|" * len(COLUMNS)]
    for level in range(len(tables[0])):
        name = "full (%d)" % level if level == len(tables[0]) - 1 else str(level)
        rows.append("| %s | %s |" % (name, " | ".join(str(t[level]) for t in tables)))
    return "\n".join(rows)


def main():
    text = table(measured())
    for path in ["docs/strength.md", "protocol/PROTOCOL.md"]:
        doc = ROOT / path
        before, rest = doc.read_text().split(START, 1)
        _, after = rest.split(END, 1)
        doc.write_text("%s%s\n%s\n%s%s" % (before, START, text, END, after))


if __name__ == "__main__":
    main()
