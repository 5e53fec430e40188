"""The reference in docs/ says what the code does: the parameter tables list exactly what each node declares,
with the same defaults; the run-time list is the node's; every docs page the README links to exists, and
every relative link inside docs/ resolves."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _tables(markdown: str) -> dict[str, dict[str, str]]:
    """{section title: {parameter: default text}} of every `## ...` section's parameter table."""
    out: dict[str, dict[str, str]] = {}
    section = ""
    for line in markdown.splitlines():
        if line.startswith("## "):
            section = line[3:]
        m = re.match(r"^\| (`[^|]+`) \| ([^|]*) \|", line)
        if not m or not section:
            continue
        names = [n.strip().strip("`") for n in m.group(1).split(" / ")]
        defaults = [d.strip() for d in m.group(2).split(" / ")] if len(names) > 1 else [m.group(2).strip()]
        assert len(names) == len(defaults), line
        out.setdefault(section, {}).update(zip(names, defaults))
    return out


def _value(text: str):
    """A default as the table writes it: `vega`, `''`, 6.0, 85, false, `[0.0, ...]`."""
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("`") and text.endswith("`"):
        inner = text[1:-1]
        if inner == "''":
            return ""
        if inner.startswith("["):
            return ast.literal_eval(inner)
        return inner
    return ast.literal_eval(text)


def _section(tables, starts):
    (title,) = [t for t in tables if t.startswith(starts)]
    return tables[title]


@pytest.mark.parametrize("section,module", [
    ("Memory node", "memory_node.ros.node"),
    ("Perception node", "memory_node.ros.perception_node"),
    ("Genesis bridge", "memory_node.ros.genesis_bridge"),
    ("Plan executor", "memory_node.ros.plan_executor"),
])
def test_parameter_tables_list_what_the_nodes_declare_with_their_defaults(section, module):
    pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")
    import importlib

    declared = importlib.import_module(module).PARAMETERS
    listed = _section(_tables((DOCS / "parameters.md").read_text()), section)
    assert set(listed) == set(declared)
    for name, text in listed.items():
        value, default = _value(text), declared[name][0]
        assert type(value) is type(default) and value == default, (name, text, default)


def test_the_run_time_parameters_the_docs_name_are_the_nodes():
    pytest.importorskip("memory_node.msg", reason="needs the colcon build (scripts/test.sh)")
    from memory_node.ros.node import PARAMETERS, RUNTIME_PARAMETERS

    text = " ".join((DOCS / "parameters.md").read_text().split())
    sentence = text[text.index("At run time `ros2 param set` applies at once"):]
    sentence = sentence[:sentence.index(";")]
    named = re.findall(r"`([a-z_.*]+)`", sentence)
    expanded = {p for pattern in named for p in PARAMETERS
                if (p.startswith(pattern[:-1]) if pattern.endswith("*") else p == pattern)}
    assert expanded == set(RUNTIME_PARAMETERS)


def test_every_link_in_the_readme_and_docs_resolves():
    pages = [ROOT / "README.md", *DOCS.glob("*.md")]
    for page in pages:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target:
                continue
            assert (page.parent / target).exists(), f"{page.name}: {target}"
    linked = set(re.findall(r"\]\(docs/([a-z_]+\.md)\)", (ROOT / "README.md").read_text()))
    assert linked == {p.name for p in DOCS.glob("*.md")}  # every docs page is reachable from the README


def test_the_readme_is_an_overview():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 120
    first_block = readme[readme.index("```bash"):readme.index("```", readme.index("```bash") + 3)]
    assert "scripts/demo.sh" in first_block and "scripts/test.sh" in first_block
