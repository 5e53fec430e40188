"""The memory node and the Genesis bridge: a simulated Dexmate Vega in a household scene, on a workstation.

    ros2 launch memory_node sim.launch.py [scene:=small_home] [scenario:=moved_twice] [namespace:=sim]
                                          [database_path:=...] [rviz:=true] [perception:=true]

``perception:=true``: memory gets no scene graph from the simulator; the perception node turns the bridge's
RGB-D, camera info, camera_pose and segmentation image (with its id -> label table) into the scene graphs
memory ingests (the bridge's ``perception_only`` mode; the scene file is the perception node's room layout).

The bridge publishes the simulated robot's camera, depth, pose, map, scene graphs and skill feedback on the
memory node's inputs and executes the plans the node publishes on ``~/plans``, open-loop. With ``scenario``
set it plays that scenario (config/scenarios) instead, prints its table and exits. Without ``ros2 launch``
(this package's CI machines): ``scripts/sim.sh`` runs the same two executables.

What it will not do, and says so: simulate another robot than the Vega (``robot:=g1`` is refused: no G1 model
is installable), or run on simulated time (``use_sim_time:=true`` is refused: the bridge stamps everything
with wall time and publishes no ``/clock``). Memory goes to a database of its own, never the robot's
(``$ROS_HOME/memory_node/vega.db``): ``$ROS_HOME/memory_node/sim_<scene>.db`` live, a fresh temporary file
for a scenario (which starts from an empty memory).

Beside a robot on one ROS domain: the simulator runs in a namespace of its own (``sim`` by default: its
memory is ``/sim/memory_node``, its plans ``/sim/memory_node/plans``) and refuses the root namespace, where
vega.launch.py and g1.launch.py put the robot's memory node, and a robot's own database file. Otherwise two
``/memory_node`` answered on one domain, the simulator's map, frames and pose went into the robot's memory
and a real controller would have received simulated plans.
"""

import importlib.util
import os
import tempfile

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction, Shutdown
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.substitutions import FindPackageShare

_spec = importlib.util.spec_from_file_location(
    "memory_node_memory_launch", os.path.join(os.path.dirname(os.path.abspath(__file__)), "memory.launch.py"))
_memory_launch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_memory_launch)

SIMULATED_ROBOTS = ("vega",)  # what memory_node/sim can simulate (the Vega URDF from dexmate-urdf)
DEFAULT_NAMESPACE = "sim"


def robot_databases() -> list[str]:
    """The robots' own memory files (the robot launch files' default): never the simulator's."""
    ros_home = os.environ.get("ROS_HOME") or os.path.join(os.path.expanduser("~"), ".ros")
    return [os.path.join(ros_home, "memory_node", f"{r}.db") for r in _memory_launch.known_robots()]


def sim_database(scene: str, scenario: str) -> str:
    """Default memory of a simulation run: per scene when live (a simulated home accumulates like a real
    one), fresh for a scenario; never the robot's own file."""
    if scenario:
        return os.path.join(tempfile.mkdtemp(prefix="memory_sim_"), "memory.db")
    ros_home = os.environ.get("ROS_HOME") or os.path.join(os.path.expanduser("~"), ".ros")
    name = os.path.splitext(os.path.basename(scene.rstrip("/")))[0] or "scene"
    return os.path.join(ros_home, "memory_node", f"sim_{name}.db")


def _sim(context, *args, **kwargs):
    robot = LaunchConfiguration("robot").perform(context)
    if robot not in SIMULATED_ROBOTS:
        raise RuntimeError(f"sim.launch.py: robot:={robot} cannot be simulated; the Genesis bridge simulates "
                           f"only {', '.join(SIMULATED_ROBOTS)} (for a real {robot}: {robot}.launch.py)")
    # not a declared argument (nothing publishes /clock), so a user's use_sim_time:=true would otherwise be
    # ignored without a word while the node waits for a clock that never ticks
    if _memory_launch.boolean_argument(context, "use_sim_time"):
        raise RuntimeError("sim.launch.py: use_sim_time is not supported: the Genesis bridge stamps its "
                           "messages with wall time and publishes no /clock; leave use_sim_time out")
    namespace = LaunchConfiguration("namespace").perform(context).strip("/")
    if not namespace:
        raise RuntimeError(f"sim.launch.py: namespace:= is the root namespace, where a robot's memory node runs "
                           f"(vega.launch.py, g1.launch.py): the simulator would write into its memory and "
                           f"publish on its /memory_node/plans; give the simulator one of its own (default "
                           f"{DEFAULT_NAMESPACE})")
    memory_fqn = f"/{namespace}/memory_node"
    given_db = LaunchConfiguration("database_path").perform(context)
    if given_db and os.path.abspath(os.path.expanduser(given_db)) in [os.path.abspath(d) for d in robot_databases()]:
        raise RuntimeError(f"sim.launch.py: database_path:={given_db} is a robot's own memory; the simulator "
                           f"keeps its own (leave database_path out: $ROS_HOME/memory_node/sim_<scene>.db)")
    scene = LaunchConfiguration("scene").perform(context)
    scenario = LaunchConfiguration("scenario").perform(context)
    memory = _memory_launch.memory_node(context, default_database=sim_database(scene, scenario),
                                        use_sim_time=False)
    perception = _memory_launch.perception_enabled(context)
    extra = []
    if perception:
        extra.append(_memory_launch.perception_node(context, overrides=sim_perception_overrides(context, scene),
                                                    use_sim_time=False))
    bridge = Node(
        package="memory_node",
        executable="genesis_bridge",
        name="genesis_bridge",
        namespace=LaunchConfiguration("namespace"),
        parameters=[{"scene": scene, "memory_node": memory_fqn, "robot": robot, "use_sim_time": False,
                     "perception_only": perception}],
        arguments=["--scenario", scenario] if scenario else [],
        output="screen",
        emulate_tty=True,
        additional_env=_memory_launch.log_environment(),
        # a scenario ends the launch when it is played; live, a bridge that stops leaves nothing to drive
        on_exit=Shutdown(reason="genesis_bridge exited"),
        # after its "shutting down" line the bridge takes 5-6 s to exit here: Genesis writes its kernel
        # cache at exit (cutting that short means recompiling, minutes, next time); launch's default 5 s
        # before SIGTERM (ignored while it cleans up) and 5 more before SIGKILL are too short for it
        sigterm_timeout="30",
    )
    return [memory, *extra, bridge, *_memory_launch.rviz(context)]


def sim_perception_overrides(context, scene: str) -> dict:
    """What memory_node.ros.sim_demo.sim_perception_parameters sets: the scene file as room layout, the
    simulator's ids as entity ids, one sighting to confirm."""
    path = scene if scene.endswith((".yaml", ".yml")) else \
        os.path.join(FindPackageShare("memory_node").perform(context), "config", "sim", "scenes", f"{scene}.yaml")
    return {"rooms_file": path, "instance_ids": True, "association.confirm_after": 1}


def generate_launch_description() -> LaunchDescription:
    return LaunchDescription([
        *_memory_launch.declare_arguments(
            "vega", robots="the simulated robot: vega (the only one the bridge simulates)",
            database_default="$ROS_HOME/memory_node/sim_<scene>.db; with a scenario, a fresh temporary file "
                             "(never the robot's own memory)",
            namespace=DEFAULT_NAMESPACE),
        DeclareLaunchArgument("scene", default_value="small_home",
                              description="scene under config/sim/scenes, or a path to a scene file"),
        DeclareLaunchArgument("scenario", default_value="",
                              description="scenario under config/scenarios to play, then exit; '' = run live"),
        OpaqueFunction(function=_sim),
    ])
