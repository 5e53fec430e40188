"""Installs the memory_node Python package without ROS (`pip install -e .`): the memory engine, planners,
scenes and bench work where ROS is absent. The ROS node, its interfaces and launch files are built with
colcon (see README); `memory_node.ros` needs that build."""

from setuptools import find_packages, setup

setup(
    name="memory_node",
    version="0.1.0",
    description="Persistent, queryable robot memory for ROS 2 (engine usable without ROS)",
    license="Apache-2.0",
    python_requires=">=3.10",
    packages=find_packages(include=["memory_node", "memory_node.*"]),
    install_requires=["pydantic>=2.5", "pyyaml>=6", "numpy>=1.24", "opencv-python-headless>=4.8"],
    # LLM mode (memory_node/planning/llm.py) is optional: without openai the deterministic path serves
    # perception's 3D lifting needs open3d (open3d-cpu: the CPU build, same module; see
    # requirements-perception.txt); a robot with its own open3d build installs without this extra
    extras_require={"test": ["pytest>=7"], "llm": ["openai>=1.40"], "perception": ["open3d-cpu>=0.19"]},
)
