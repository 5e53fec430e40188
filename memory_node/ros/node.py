"""The memory_node ROS 2 node: thin glue between topics/services and the memory engine.

Threading: every callback that writes memory runs on one single-threaded executor, in arrival order, so
the store has exactly one writer and reads see whole messages. Requests must not hold that executor up, so
small companion nodes serve them on executor threads of their own, under this node's service names:
``~/sync`` (it blocks while it waits; its companion only reads the ingest counters), and ``~/ask``,
``~/plan``, ``~/query`` and ``~/scene_graph``: their companion hands each request to a worker thread
(ros/request_worker.py; one for ~/ask and ~/plan, one for ~/query and ~/scene_graph, so a lookup does not
wait behind a model) that reads memory through a read-only SQLite connection of its own (it sees each message
the writer has committed), and answers "took too long" with success false when the worker has not finished
within ``requests.deadline_s`` (LLM mode: plus ``llm.timeout_s``). A request only reads, so one abandoned at
its deadline leaves nothing half-written; its reads are interrupted, and its result is dropped. ``~/forget``
writes, so it stays on the main executor. The parser and the conversation state are used by the ~/ask and
~/plan worker only; ingestion, ``/diagnostics`` and Ctrl-C go on while a request runs.
(rclpy's MultiThreadedExecutor was tried first: with it a message waited 5-2700 ms before its callback ran,
median ~130 ms, against ~1 ms on a single-threaded executor.)
"""

from __future__ import annotations

import collections
import dataclasses
import gc
import os
import re
import sqlite3
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import rclpy
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import PoseStamped
from nav_msgs.msg import OccupancyGrid
from rcl_interfaces.msg import SetParametersResult
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.lifecycle import LifecycleNode, LifecycleState, TransitionCallbackReturn
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.signals import SignalHandlerOptions
from sensor_msgs.msg import CameraInfo, CompressedImage, Image
from visualization_msgs.msg import MarkerArray

from memory_node.core import similarity
from memory_node.core.consolidation import run_consolidation
from memory_node.core.limits import InputLimits, check_seconds, check_time_ns
from memory_node.core.models import InvalidInput
from memory_node.core.query import query as query_memory
from memory_node.core.store import IncompatibleMemory, MemoryInUse, MemoryNotWritable, MemoryStore, MemoryUnavailable
from memory_node.core.text import clean_text
from memory_node.msg import Activity, Heartbeat, SceneGraph, SkillFeedback, Utterance
from memory_node.msg import Plan as PlanMsg
from memory_node.language import Conversation, ParserUnavailable, parse
from memory_node.language import reader as learned_reader
from memory_node.language.names import default_names
from memory_node.language.uses import default_uses
from memory_node.llm.client import LlmAccount, LlmConfig, LlmPlanner, LlmStats
from memory_node.requests.dispatch import answer_question, plan_request
from memory_node.planning.skills import SkillLibrary, SkillLibraryError, default_library_path, known_robots
from memory_node.ros import conversions as conv
from memory_node.core.storage import is_database_url, redact
from memory_node.ros.heartbeat import heartbeat_qos
from memory_node.ros.ingest import InputIngestor, open_store
from memory_node.ros.plan_ledger import PlanLedger
from memory_node.ros.markers import memory_markers
from memory_node.ros.parameters import ParameterError, declare_parameters
from memory_node.ros.request_worker import RequestTimeout, RequestWorker
from memory_node.ros.shutdown import ExecutorThread, ShutdownSignals, spin_until_shutdown
from memory_node.ros.write_times import WriteTimes
from memory_node.srv import Ask, Forget, GetSceneGraph, PlanTask, Query, Sync

INACTIVE_ERROR = ("memory_node is inactive (lifecycle): inputs are ignored and requests refused until it is "
                  "activated")
MAX_WARM_ENTITIES = 20_000  # past this many things in memory, what kinds are for is read as requests need it
_LIMIT_NAMED = re.compile(r"limits\.(max_[a-z_]+)")  # how core/limits.py names the limit that refused
# messages kept while a site database cannot be reached (MemoryUnavailable), written in arrival order once it
# is back; beyond this many the oldest are kept and new ones refused (counted), so memory use stays bounded
MAX_BUFFERED_MESSAGES = 100_000
INPUTS = ("scene_graphs", "skill_feedback", "utterances", "images", "depth", "camera_info", "maps", "poses",
          "activities")

PARAMETERS: dict[str, tuple[Any, str]] = {
    "robot": ("vega", "Robot this node plans for: vega or g1 (selects config/skills/<robot>.yaml)."),
    "skill_library": ("", "Path to the skill library YAML; '' = the package's config/skills/<robot>.yaml."),
    "database_path": ("", "SQLite file of the memory; '' = $ROS_HOME/memory_node/<robot>.db "
                          "(ROS_HOME defaults to ~/.ros). Frames are stored beside it in frames/."),
    "database_url": ("", "A site memory several robots share: postgresql://user[:password]@host[:port]/db "
                         "(libpq URL; a password is better kept in ~/.pgpass or PGPASSWORD). Set, it replaces "
                         "database_path; frames stay on this robot's disk in $ROS_HOME/memory_node/"
                         "<robot_name>_frames."),
    "site": ("", "Name of the site (home, office) recorded on every record this node writes."),
    "robot_name": ("", "This robot's name in a site memory, recorded on every record it writes; '' = the "
                       "node's namespace (without '/'), else robot."),
    "shared_ids": (False, "In a site memory: the ids in this robot's scene graphs name the same things for "
                          "every robot (a site-wide mapper, the simulator). False: they are this robot's own "
                          "and are stored as <robot_name>/<id>, so two robots' mug_1 never collide."),
    "frames.similarity_threshold": (6.0, "Admission gate: a frame whose 16x16 grey thumbnail differs from the "
                                         "room's last admitted frame by less than this mean absolute grey "
                                         "level (0-255) is rejected as a near-duplicate."),
    "frames.jpeg_quality": (85, "JPEG quality (1-100) for stored raw frames."),
    "qos.sensor_depth": (5, "History depth of camera, depth and pose subscriptions (best effort)."),
    "qos.event_depth": (0, "History of the scene graph, skill feedback, utterance and activity subscriptions "
                           "(reliable): 0 = keep all, so a burst is delivered late rather than dropped (a "
                           "publisher that keeps all too is slowed down instead of losing messages); N > 0 = "
                           "keep the last N (measured: 300 graphs sent at once with N = 200 lost 90)."),
    "limits.max_entities_per_graph": (20000, "Scene graphs with more entities are rejected whole."),
    "limits.max_relations_per_graph": (100000, "Scene graphs with more relations are rejected whole."),
    "limits.max_text_length": (4000, "Longest utterance, question, instruction, ~/query text, skill feedback "
                                     "message or activity text accepted, in characters."),
    "limits.max_id_chars": (128, "Longest entity id, relation end, skill target or argument, activity object, "
                                 "~/query entity_id or ~/forget id, in characters."),
    "limits.max_label_chars": (128, "Longest label, predicate, state, skill, skill status, activity verb or "
                                    "~/query store name."),
    "limits.max_name_chars": (256, "Longest entity name, speaker, actor, robot or graph source."),
    "limits.max_room_chars": (128, "Longest room (entity, graph, request) or activity location."),
    "limits.max_attribute_key_chars": (64, "Longest attribute key of an entity."),
    "limits.max_attribute_value_chars": (256, "Longest attribute value of an entity."),
    "limits.max_attributes": (64, "Most attributes one entity may carry."),
    "limits.max_states": (32, "Most states one entity may carry."),
    "limits.max_list_items": (256, "Most skill arguments, activity objects or ~/forget ids in one message."),
    "limits.max_image_pixels": (3840 * 2160, "Largest camera image accepted (width x height)."),
    "limits.query_limit": (12, "Records ~/query returns when the request's limit is 0."),
    "limits.max_query_records": (1000, "Most records one ~/query returns, whatever its limit asks (bounds a "
                                       "reply's size and the memory it takes)."),
    "limits.max_sync_wait_s": (60.0, "Longest a ~/sync waits for its counts, whatever timeout it asks; a "
                                     "negative or non-finite timeout is refused."),
    "retention.frames_per_room": (0, "Keep at most this many newest frames per room (0 = no limit); older "
                                     "frames and their files are deleted at each diagnostics period."),
    "retention.max_frame_age_s": (0.0, "Delete frames older than this many seconds before the newest "
                                       "observation (event time; 0 = keep forever)."),
    "association_radius": (0.5, "Metres within which an entity reported without a stable id (empty or '_:' "
                                "id) is taken to be the same-label entity memory has in that room."),
    "position_tolerance": (0.05, "Metres: a re-observed position within this of the stored one is jitter, not a "
                                 "move (no new stored version; last-seen time still updates). 0 = every change."),
    "sighting_gap": (5.0, "Seconds: sightings of an entity at most this far apart are one interval of being in view "
                          "(what ~/query's since/until windows read); a longer gap starts a new interval."),
    "diagnostics_period": (1.0, "Seconds between /diagnostics and ~/markers updates."),
    "heartbeat_period": (1.0, "Seconds between ~/heartbeat messages (the first is sent once the services "
                              "answer); a client takes the node as gone after 3 periods without one."),
    "consolidation_period": (60.0, "Seconds between consolidation runs (routines, habits, preferences from "
                                   "skill and activity events; skipped when nothing changed). 0 = only on "
                                   "demand, when ~/ask or ~/query needs knowledge that is out of date."),
    "requests.deadline_s": (5.0, "Seconds ~/ask, ~/plan, ~/query and ~/scene_graph may take (in LLM mode "
                                 "llm.timeout_s more for ~/ask and ~/plan); then the request is answered "
                                 "success false, 'took too long', and nothing was changed."),
    "llm.enabled": (False, "Answer ~/ask and plan ~/plan through an LLM (any OpenAI-compatible endpoint) with "
                           "memory tools; every LLM plan passes the same validator, and any error, timeout, "
                           "malformed output or spent budget falls back to the deterministic path. Served on "
                           "a thread of their own with a read-only view of memory, so ingestion goes on "
                           "while the model works; one request at a time. false = no LLM anywhere."),
    "llm.mode": ("tools", "What the LLM does: 'tools' = it answers / plans itself through memory tools; "
                          "'request' = it only turns the utterance into the typed request (structured output "
                          "against the parser's schema), which is then grounded, answered or planned and "
                          "validated exactly as the deterministic parser's; the parser reads it instead when "
                          "the model's request is unusable."),
    "llm.base_url": ("", "OpenAI-compatible endpoint, e.g. http://localhost:8080/v1 (llama.cpp, vLLM, "
                         "Ollama); '' = the OpenAI API."),
    "llm.model": ("", "Model name sent to the endpoint; required when llm.enabled."),
    "llm.api_key_env": ("OPENAI_API_KEY", "Environment variable holding the API key (never a parameter); "
                                          "a local server needs none."),
    "llm.timeout_s": (20.0, "Seconds all model calls of one request may take together; then the "
                            "deterministic answer or plan is returned. Ingestion is not held up meanwhile; "
                            "the next ~/ask or ~/plan waits."),
    "llm.max_question_tool_calls": (5, "Memory tool calls one question may make; then the answer is forced."),
    "llm.max_plan_iterations": (8, "Model turns one plan may take; then one forced submission, and the "
                                   "deterministic planner if that does not validate."),
}

# What a running node applies when set (``ros2 param set``): read per message or per period from ``self.p``,
# or a store attribute (``_apply_parameters``). Every other parameter is read-only: it shapes subscriptions,
# timers, the database or the LLM client, made once at configure.
RUNTIME_PARAMETERS = ("frames.similarity_threshold", "frames.jpeg_quality",
                      *(name for name in PARAMETERS if name.startswith("limits.")),  # per message or request
                      "retention.frames_per_room", "retention.max_frame_age_s",
                      "association_radius", "position_tolerance", "sighting_gap")
LIMIT_FIELDS = frozenset(f.name for f in dataclasses.fields(InputLimits))
PARAMETER_RANGES: dict[str, tuple[float, float]] = {
    "frames.similarity_threshold": (0.0, 255.0),
    "frames.jpeg_quality": (1, 100),
    "qos.sensor_depth": (1, 10000),
    "qos.event_depth": (0, 1000000),
    "limits.max_entities_per_graph": (1, 10000000),
    "limits.max_relations_per_graph": (1, 100000000),
    "limits.max_text_length": (1, 1000000),
    "limits.max_image_pixels": (1, 1000000000),
    "limits.query_limit": (1, 10000),
    "retention.frames_per_room": (0, 100000000),
    "retention.max_frame_age_s": (0.0, 1e10),
    "association_radius": (0.0, 100.0),
    "position_tolerance": (0.0, 100.0),
    "sighting_gap": (0.001, 1e6),
    "diagnostics_period": (0.01, 3600.0),
    "heartbeat_period": (0.05, 3600.0),
    "consolidation_period": (0.0, 1e6),
    "llm.timeout_s": (0.1, 3600.0),
    "llm.max_question_tool_calls": (0, 1000),
    "llm.max_plan_iterations": (1, 1000),
}
# a controller that starts after a plan was made still gets the latest ones (and a restarted one the last
# few); reliable so none is dropped. A volatile subscriber (the Genesis bridge's) matches it too.
PLANS_QOS = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10, reliability=ReliabilityPolicy.RELIABLE,
                       durability=DurabilityPolicy.TRANSIENT_LOCAL)


class StartupError(RuntimeError):
    """The node cannot start with what it was given (robot, database, parameter): one line says why."""


def default_database_path(robot: str) -> Path:
    ros_home = os.environ.get("ROS_HOME") or os.path.join(os.path.expanduser("~"), ".ros")
    return Path(ros_home) / "memory_node" / f"{robot}.db"


class _MemoryNodeBase:
    """The memory node's behaviour, for a plain ``Node`` (``MemoryNode``) and a managed one
    (``LifecycleMemoryNode``): set-up is split into :meth:`configure` (open memory, create the topics,
    services, timers and companions) and :meth:`release` (the reverse), and inputs and requests are served
    only while ``active``. The plain node configures and activates itself at construction."""

    def _declare(self) -> None:
        self.stopping = threading.Event()  # set at shutdown: ~/sync stops waiting
        self._destroyed = False
        self.active = False  # inputs and requests are served only while active (see _guard, _service)
        self.configured = False
        self.companion_threads: list[ExecutorThread] = []
        self.companions: list[Node] = []
        self.reader: MemoryStore | None = None  # ~/ask and ~/plan read through it, on their worker
        self.lookup_reader: MemoryStore | None = None  # ~/query and ~/scene_graph, on theirs
        self.workers: dict[str, RequestWorker] = {}
        self.ingested = {k: 0 for k in INPUTS}   # processed (stored, rejected or ignored): what ~/sync waits on
        self.rejected = {k: 0 for k in INPUTS}
        self.over_limit: dict[str, int] = {}  # limits.<name> -> messages and requests it refused
        self.ignored = {k: 0 for k in INPUTS}    # arrived while the node was inactive (lifecycle)
        self.write_times = WriteTimes()  # per input callback, reported in /diagnostics
        self.request_timeouts = 0  # requests answered "took too long" at their deadline
        self.internal_errors = 0  # rejections that were not a documented InvalidInput: a bug to look at
        self.storage_errors = 0  # writes memory could not take (disk full, read-only medium)
        self.last_write_failed = False
        self.serving = False  # services answer: heartbeats go out (announce_ready)
        self.heartbeats_sent = 0
        self.started_ns = 0  # when this process first served; a client sees a restart as a new value
        self.plan_ledger = PlanLedger()  # plans published on ~/plans, for the skill feedback that names one
        # (input name, handler, message) that a site database could not take while unreachable, in order
        self.buffered: collections.deque = collections.deque()
        self.buffered_total = 0  # messages that ever waited for the database
        self.memory_unavailable = False
        self._last_counts: dict[str, int] = {}
        self._counts_changed = threading.Condition()
        self.errors: list[str] = []
        self._resolve_database_path()
        declare_parameters(self, PARAMETERS, runtime=RUNTIME_PARAMETERS, ranges=PARAMETER_RANGES)
        self.add_on_set_parameters_callback(self._check_parameters)
        self.add_post_set_parameters_callback(self._apply_parameters)

    def _resolve_database_path(self) -> None:
        """``database_path`` reads back the file in use (``ros2 param get``), not '': the default is
        resolved before the (read-only) parameter is declared."""
        overrides = self._parameter_overrides
        given = overrides.get("database_path")
        path = str(given.value) if given is not None and isinstance(given.value, str) else ""
        if given is not None and not isinstance(given.value, str):
            return  # declare_parameters refuses it, naming the type
        robot = overrides.get("robot")
        robot_name = str(robot.value) if robot is not None and isinstance(robot.value, str) else \
            str(PARAMETERS["robot"][0])
        resolved = str(Path(path).expanduser()) if path else str(default_database_path(robot_name))
        overrides["database_path"] = Parameter("database_path", Parameter.Type.STRING, resolved)

    def _check_parameters(self, params: list[Parameter]) -> SetParametersResult:
        """What rclpy's descriptors cannot say (types, ranges and read-only they check themselves)."""
        for param in params:
            if param.name == "position_tolerance" and not param.value >= 0.0:
                return SetParametersResult(successful=False, reason="position_tolerance must be >= 0 metres")
        return SetParametersResult(successful=True)

    def _apply_parameters(self, params: list[Parameter]) -> None:
        """A run-time change takes effect now: ``self.p`` is what the ingestor, services and timers read per
        message or period; the store keeps its own copies of four."""
        if not hasattr(self, "p"):  # declaring, before configure read them
            return
        for param in params:
            if param.name not in RUNTIME_PARAMETERS:
                continue
            self.p[param.name] = param.value
            if self.configured:
                if param.name == "frames.similarity_threshold":
                    self.store.frame_similarity_threshold = float(param.value)
                elif param.name == "association_radius":
                    self.store.association_radius = float(param.value)
                elif param.name == "position_tolerance":
                    self.store.position_tolerance = float(param.value)
                elif param.name == "sighting_gap":
                    self.store.sighting_gap_ns = int(float(param.value) * 1e9)
                elif param.name.startswith("limits.") and param.name.removeprefix("limits.") in LIMIT_FIELDS:
                    # the store, the request readers and the node's own request checks share one InputLimits
                    self.limits = InputLimits.from_params(self.p)
                    for store in (self.store, self.reader, self.lookup_reader):
                        if store is not None:
                            store.limits = self.limits
            self.get_logger().info(f"parameter {param.name} = {param.value!r} (applied)")

    def configure(self) -> None:
        """Open memory and create every interface; on an error whatever was made is released again."""
        try:
            self._configure()
        except BaseException:
            self.release()
            raise

    def _configure(self) -> None:
        p = {name: self.get_parameter(name).value for name in PARAMETERS}
        self.p = p
        self.stopping.clear()
        self._entities: list[tuple[str, Any]] = []  # (kind, entity) made here, destroyed by release()
        self.robot = str(p["robot"])
        self.libraries: dict[str, SkillLibrary] = {}
        self._libraries_lock = threading.Lock()  # ~/plan may be served on the LLM thread
        try:
            self.library = self._library(self.robot, str(p["skill_library"]))
        except (SkillLibraryError, OSError) as err:
            raise StartupError(f"{err}; robots with a skill library: {', '.join(known_robots())}") from None

        db_path = Path(p["database_path"]).expanduser() if p["database_path"] else default_database_path(self.robot)
        self.database_path = db_path
        self.robot_name = str(p["robot_name"]) or self.get_namespace().strip("/").replace("/", "_") or self.robot
        target: str | Path = db_path
        site = {}
        if p["database_url"]:
            target = str(p["database_url"])
            if not is_database_url(target):
                raise StartupError(f"database_url must be a postgresql:// URL, got {redact(target)}")
            frames = default_database_path(self.robot).parent / f"{self.robot_name}_frames"
            site = {"robot": self.robot_name, "site": str(p["site"]), "frame_dir": frames,
                    "id_namespace": "" if p["shared_ids"] else self.robot_name}
        self.memory_name = redact(target) if p["database_url"] else str(db_path)
        try:
            self.store = open_store(target, p, **site)
        except (IncompatibleMemory, MemoryNotWritable, MemoryInUse) as err:
            raise StartupError(f"cannot use memory: {err}") from None
        except sqlite3.DatabaseError as err:
            raise StartupError(f"database_path {db_path} is not a memory database ({err})") from None
        except OSError as err:
            raise StartupError(f"database_path {db_path}: {err.strerror or err}") from None
        self.limits = self.store.limits  # the same limits guard requests (core/limits.py)
        self.configured = True
        self.get_logger().info(f"memory at {self.memory_name} ({self.store.counts()['entities']} entities); "
                               f"robot {self.robot}, skills {', '.join(self.library.names())}")

        # what each speaker referred to last ("bring it to me"), shared by ~/ask and ~/plan; dialogue state,
        # not experience, so it is not in the database
        self.conversation = Conversation()
        self._warm_up_parser()
        self.llm_stats = LlmStats()
        self.llm = self._llm_planner(p)
        # LLM mode reads memory on its own thread through its own connection (see module docstring)
        # requests read memory on the worker thread through their own connection (see module docstring)
        self.reader = MemoryStore.open_reader(target, frame_dir=self.store.frame_dir, limits=self.limits)
        self.lookup_reader = MemoryStore.open_reader(target, frame_dir=self.store.frame_dir, limits=self.limits)
        self.workers = {"language": RequestWorker(f"{self.get_name()}_language", self._interrupt(self.reader)),
                        "lookup": RequestWorker(f"{self.get_name()}_lookup", self._interrupt(self.lookup_reader))}

        # what each input message does to memory, shared with `memory-node replay` (ros/ingest.py)
        self.inputs = InputIngestor(self.store, p, now_ns=lambda: self.get_clock().now().nanoseconds,
                                    on_rejected_part=self._reject_part)

        event_depth = int(p["qos.event_depth"])
        events_qos = QoSProfile(history=HistoryPolicy.KEEP_LAST if event_depth > 0 else HistoryPolicy.KEEP_ALL,
                                depth=max(event_depth, 1), reliability=ReliabilityPolicy.RELIABLE)
        sensor_qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=int(p["qos.sensor_depth"]),
                                reliability=ReliabilityPolicy.BEST_EFFORT)
        map_qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)

        def sub(msg_type, topic, callback, qos) -> None:
            self._entities.append(("subscription", self.create_subscription(msg_type, topic, callback, qos)))

        sub(SceneGraph, "scene_graph", self._guard("scene_graphs", self.inputs.scene_graph), events_qos)
        sub(SkillFeedback, "skill_feedback", self._guard("skill_feedback", self._skill_feedback), events_qos)
        sub(Utterance, "user_utterance", self._guard("utterances", self.inputs.utterance), events_qos)
        sub(Activity, "activity", self._guard("activities", self.inputs.activity), events_qos)
        sub(Image, "camera/image_raw", self._guard("images", self.inputs.image), sensor_qos)
        sub(CompressedImage, "camera/image_raw/compressed", self._guard("images", self.inputs.compressed_image),
            sensor_qos)
        sub(Image, "camera/depth/image_raw", self._guard("depth", self.inputs.depth), sensor_qos)
        sub(CameraInfo, "camera/camera_info", self._guard("camera_info", self.inputs.camera_info_msg),
            sensor_qos)
        sub(OccupancyGrid, "map", self._guard("maps", self.inputs.map), map_qos)
        sub(PoseStamped, "robot_pose", self._guard("poses", self.inputs.robot_pose), sensor_qos)

        def srv(srv_type, name, callback) -> None:
            self._entities.append(("service", self.create_service(srv_type, name, callback)))

        srv(Forget, "~/forget", self._service(self.on_forget))
        # ~/sync and the reading requests of this node, served by companion nodes on threads of their own
        # (see module docstring); start_companions() spins each on its own executor
        own = self.get_fully_qualified_name()
        self.sync_node = self._companion("sync")
        self.sync_node.create_service(Sync, f"{own}/sync", self.on_sync)
        # one companion per worker: a callback waits for its worker, so a lookup must not wait behind a question
        self.language_node, self.lookup_node = self._companion("language"), self._companion("lookup")
        for companion, srv_type, name, handler in (
                (self.language_node, Ask, "ask", self.on_ask), (self.language_node, PlanTask, "plan", self.on_plan),
                (self.lookup_node, Query, "query", self.on_query),
                (self.lookup_node, GetSceneGraph, "scene_graph", self.on_get_scene_graph)):
            companion.create_service(srv_type, f"{own}/{name}", self._request(name, handler))
        self.companions = [self.sync_node, self.language_node, self.lookup_node]

        self.plans_pub = self.create_publisher(PlanMsg, "~/plans", PLANS_QOS)
        self.markers_pub = self.create_publisher(MarkerArray, "~/markers", 1)
        self.diag_pub = self.create_publisher(DiagnosticArray, "/diagnostics", 10)
        self.heartbeat_pub = self.create_publisher(Heartbeat, "~/heartbeat",
                                                   heartbeat_qos(float(p["heartbeat_period"])))
        self._entities += [("publisher", pub) for pub in (self.plans_pub, self.markers_pub, self.diag_pub,
                                                          self.heartbeat_pub)]
        self._entities.append(("timer", self.create_timer(float(p["diagnostics_period"]), self.publish_status)))
        self._entities.append(("timer", self.create_timer(float(p["heartbeat_period"]), self.publish_heartbeat)))
        if self.store.backend != "sqlite":  # a server can go away and come back: retry what it missed
            self._entities.append(("timer", self.create_timer(0.5, self.flush_buffered)))
        if float(p["consolidation_period"]) > 0:
            self._entities.append(("timer", self.create_timer(float(p["consolidation_period"]), self.consolidate)))
        # spaCy's pipeline, MiniLM and the libraries are hundreds of thousands of long-lived objects; left to
        # the collector, a full collection stalls a request now and then by ~250 ms (measured: parse + ground
        # p99 268 ms unfrozen, 26 ms frozen, `python -m memory_node.bench.language_bench`)
        gc.freeze()

    def start_companions(self) -> None:
        """Spin each companion on its own executor and thread (see module docstring)."""
        for companion in self.companions:
            executor = SingleThreadedExecutor()
            executor.add_node(companion)
            self.companion_threads.append(ExecutorThread(executor, name=companion.get_name()))

    def stop_companions(self) -> bool:
        """Stop and join the companions' threads; False when one is still in a callback after 5 s (its
        node and the LLM reader are then left to the process exit rather than destroyed under it)."""
        self.stopping.set()  # a ~/sync waiting for counts returns now instead of at its timeout
        stuck = [t for t in self.companion_threads if not t.stop()]
        self.companion_threads = stuck
        if stuck:
            self.get_logger().warning(f"{len(stuck)} companion thread(s) still in a callback after 5 s; left "
                                      f"to the exit")
        return not stuck

    def release(self, companions: bool = True) -> None:
        """Undo :meth:`configure`: companions stopped and destroyed, interfaces destroyed, memory closed
        (every committed message stays). Idempotent; the node can be configured again afterwards.
        ``companions=False``: a companion thread could not be joined (see destroy_node)."""
        self.active = False
        self.serving = False
        if companions and not self.stop_companions():
            companions = False
        workers = getattr(self, "workers", {})
        for worker in workers.values():
            worker.stop()
        if companions:
            for companion in self.companions:
                companion.destroy_node()
            # a request still running past its deadline keeps its reader: that one is left to the process exit
            for reader, worker in ((self.reader, workers.get("language")),
                                   (getattr(self, "lookup_reader", None), workers.get("lookup"))):
                if reader is not None and not (worker is not None and worker.busy):
                    reader.close()
        self.companions, self.reader, self.lookup_reader, self.workers = [], None, None, {}
        destroy = {"subscription": self.destroy_subscription, "service": self.destroy_service,
                   "publisher": self.destroy_publisher, "timer": self.destroy_timer}
        for kind, entity in reversed(getattr(self, "_entities", [])):
            destroy[kind](entity)
        self._entities = []
        if self.configured:
            self.store.close()
            self.configured = False

    def announce_ready(self) -> None:
        """The services answer: say so in the log, for people, and on ~/heartbeat, for clients."""
        self.get_logger().info(self.ready_line())
        self.start_heartbeat()

    def start_heartbeat(self) -> None:
        self.serving = True
        if not self.started_ns:
            self.started_ns = self.get_clock().now().nanoseconds
        self.publish_heartbeat()

    def ready_line(self) -> str:
        """Said once the services answer, so an operator (or a script) knows when to ask."""
        own = self.get_fully_qualified_name()
        return (f"memory_node ready: serving ask/plan/query/scene_graph/forget/sync on {own}/..., plans on "
                f"{own}/plans; memory {self.memory_name}")

    # ---- plumbing ------------------------------------------------------------------------------

    def _companion(self, role: str) -> Node:
        """A node beside this one (``<name>_<role>``) whose services carry this node's names."""
        return Node(f"{self.get_name()}_{role}", namespace=self.get_namespace(), context=self.context,
                    use_global_arguments=False)

    def _llm_planner(self, p: dict[str, Any]) -> LlmPlanner | None:
        """LLM mode when enabled; its client is made now so the first request does not pay for it."""
        if not p["llm.enabled"]:
            return None
        planner = LlmPlanner(LlmConfig(
            base_url=str(p["llm.base_url"]), model=str(p["llm.model"]), api_key_env=str(p["llm.api_key_env"]),
            timeout_s=float(p["llm.timeout_s"]), max_question_tool_calls=int(p["llm.max_question_tool_calls"]),
            max_plan_iterations=int(p["llm.max_plan_iterations"]), mode=str(p["llm.mode"]).strip()))
        problem = planner.prepare()
        if problem:
            self.get_logger().error(f"llm.enabled but every request will fall back: {problem}")
        else:
            self.get_logger().info(f"LLM mode ({planner.config.mode}): model {p['llm.model']} at "
                                   f"{p['llm.base_url'] or 'the OpenAI API'}")
        return planner

    def _count_llm(self, account: LlmAccount) -> None:
        self.llm_stats.add(account)
        if account.fallback:
            self.get_logger().warning(f"llm {account.summary()}")
        else:
            self.get_logger().info(f"llm {account.summary()}")

    def _library(self, robot: str, path: str = "") -> SkillLibrary:
        with self._libraries_lock:
            if robot not in self.libraries:
                self.libraries[robot] = SkillLibrary.load(path or default_library_path(robot))
            return self.libraries[robot]

    def _guard(self, input_name: str, handler):
        """Wrap a subscription so bad input is rejected and counted, never fatal, and always counted as
        processed so ~/sync can tell the client its message was handled."""
        def callback(msg) -> None:
            started = time.perf_counter()
            processed = True
            try:
                if not self.active:  # managed node, inactive: not memory's to write, but counted
                    self.ignored[input_name] += 1
                    return
                if self.buffered:  # behind messages waiting for the database: keep arrival order
                    processed = not self._buffer(input_name, handler, msg)
                    return
                handler(msg)
                self.last_write_failed = False
            except MemoryUnavailable as err:  # the site database is restarting or unreachable: keep it
                self.memory_unavailable = True
                self.get_logger().error(f"{input_name}: {err}; buffering writes until it is back",
                                        throttle_duration_sec=5.0)
                processed = not self._buffer(input_name, handler, msg)
            except InvalidInput as err:
                self._reject(input_name, str(err))
            except MemoryNotWritable as err:  # the disk, not the message: say so loudly, keep serving reads
                self.storage_errors += 1
                self.last_write_failed = True
                self._reject(input_name, str(err))
                self.get_logger().error(f"{input_name}: {err}", throttle_duration_sec=5.0)
            except Exception as err:  # noqa: BLE001 - the node must keep serving whatever one message does
                self.internal_errors += 1
                self._reject(input_name, f"internal error: {type(err).__name__}: {err}")
                self.get_logger().error(clean_text(f"{input_name}: {type(err).__name__}: {err}"))
            finally:
                self.write_times.add(input_name, time.perf_counter() - started)
                if processed:  # a buffered message counts (for ~/sync) once it is written
                    self._count_processed(input_name)
        return callback

    def _count_processed(self, input_name: str) -> None:
        with self._counts_changed:
            self.ingested[input_name] += 1
            self._counts_changed.notify_all()

    def _buffer(self, input_name: str, handler, msg) -> bool:
        """Keep a message for when the database is back; False (it is refused and counted) when full."""
        if len(self.buffered) >= MAX_BUFFERED_MESSAGES:
            self.storage_errors += 1
            self._reject(input_name, f"memory unavailable and {MAX_BUFFERED_MESSAGES} messages already wait for it")
            return False
        self.buffered.append((input_name, handler, msg))
        self.buffered_total += 1
        return True

    def flush_buffered(self) -> None:
        """Timer: write what waited for the database, oldest first, until it refuses again."""
        while self.buffered:
            input_name, handler, msg = self.buffered[0]
            try:
                handler(msg)
            except MemoryUnavailable:
                return  # still away: the next period tries again
            except InvalidInput as err:
                self._reject(input_name, str(err))
            except Exception as err:  # noqa: BLE001 - one message must not hold the others back forever
                self.internal_errors += 1
                self._reject(input_name, f"internal error: {type(err).__name__}: {err}")
            self.buffered.popleft()
            self._count_processed(input_name)
        if self.memory_unavailable:
            self.memory_unavailable = False
            self.get_logger().info("memory is reachable again; every buffered message is written")

    def _reject(self, input_name: str, reason: str) -> None:
        reason = clean_text(reason)
        self.rejected[input_name] += 1
        for limit in _LIMIT_NAMED.findall(reason)[:1]:  # which limit refused it, counted per limit
            self.over_limit[limit] = self.over_limit.get(limit, 0) + 1
        self.errors = (self.errors + [f"{input_name}: {reason}"])[-20:]
        self.get_logger().warning(f"rejected {input_name}: {reason}", throttle_duration_sec=1.0)

    def _request(self, name: str, handler):
        """A reading request, run on the worker within its deadline (see module docstring). The worker
        fills a response of its own: one it finishes after the deadline is never sent."""
        serve = self._service(handler)
        worker = self.workers["language" if name in ("ask", "plan") else "lookup"]
        deadline = float(self.p["requests.deadline_s"])
        if self.llm is not None and name in ("ask", "plan"):
            deadline += float(self.p["llm.timeout_s"])

        def callback(request, response):
            if not self.active:
                return self._fail(response, INACTIVE_ERROR)
            try:
                result = worker.run(lambda: serve(request, type(response)()), deadline, self.stopping)
            except RequestTimeout as err:
                self.request_timeouts += 1
                self.get_logger().warning(f"~/{name} {err}", throttle_duration_sec=1.0)
                return self._fail(response, f"~/{name} {err}; nothing was changed (requests.deadline_s)")
            if name == "plan" and result.success:
                self.plans_pub.publish(result.plan)  # only a plan answered in time reaches the controller
                self.plan_ledger.add(result.plan.plan_id)
            return result
        return callback

    @staticmethod
    def _interrupt(reader: MemoryStore):
        """For a request that overran its deadline: stop the query it runs (from another thread)."""
        return reader.storage.interrupt

    def _service(self, handler):
        def callback(request, response):
            if not self.active:
                return self._fail(response, INACTIVE_ERROR)
            try:
                return handler(request, response)
            except (InvalidInput, MemoryNotWritable) as err:
                for limit in _LIMIT_NAMED.findall(str(err))[:1]:
                    self.over_limit[limit] = self.over_limit.get(limit, 0) + 1
                return self._fail(response, str(err))
            except Exception as err:  # noqa: BLE001
                self.get_logger().error(clean_text(f"service error: {type(err).__name__}: {err}"))
                return self._fail(response, f"internal error: {type(err).__name__}: {err}")
        return callback

    @staticmethod
    def _fail(response, message: str):
        if hasattr(response, "success"):
            response.success = False
        if hasattr(response, "error"):
            response.error = clean_text(message)
        return response

    def _text(self, value: str, what: str, limit: str = "max_text_length") -> str:
        """A request field under its limit, cleaned (InvalidInput: the request is answered with why)."""
        return self.limits.text(value, what, limit).strip()

    @staticmethod
    def _time(stamp, what: str) -> int | None:
        return check_time_ns(conv.optional_ns(stamp), what)

    # ---- inputs --------------------------------------------------------------------------------

    def _reject_part(self, input_name: str, reason: str) -> None:
        """Part of a message was dropped: count it and say why, the rest was stored."""
        reason = clean_text(reason)
        self.errors = (self.errors + [f"{input_name}: {reason}"])[-20:]
        self.rejected[input_name] += 1
        self.get_logger().warning(f"dropped part of {input_name}: {reason}", throttle_duration_sec=1.0)

    def consolidate(self) -> None:
        """Timer: refresh inferred knowledge (a no-op when no skill or activity event changed)."""
        if not self.active:
            return
        try:
            run = run_consolidation(self.store)
        except Exception as err:  # noqa: BLE001 - knowledge is derived; the node keeps serving without it
            self.get_logger().error(f"consolidation failed: {type(err).__name__}: {err}")
            return
        if run is not None:
            self.get_logger().info(f"consolidated {run.events} events into {run.records} knowledge records "
                                   f"{run.counts} in {run.seconds:.3f} s")

    def _warm_up_parser(self) -> None:
        """Load the request parser now (spaCy's pipeline, ~1-2 s) rather than on the first ~/ask, and say
        clearly when it is missing: requests are then answered with that error, ingestion is unaffected."""
        try:
            seconds = learned_reader.load()
            parse("where is the mug?")
        except ParserUnavailable as e:
            self.get_logger().error(f"request parser unavailable: {e}")
        except Exception as e:  # noqa: BLE001 - the rules read alone; the node serves
            self.get_logger().error(f"learned reader unavailable ({type(e).__name__}: {e}): the rules read alone")
        else:
            if learned_reader.default_reader() is None:
                self.get_logger().warning("no learned reader model: the rule parser reads alone, confidence 1.0")
            else:
                self.get_logger().info(f"learned reader loaded in {seconds * 1000:.0f} ms")
        # WordNet (lexical grounding, ~1-4 s to index its nouns) loads here too, not on the first request
        t = time.monotonic()
        if default_names().wordnet is None:
            self.get_logger().warning("WordNet 3.0 not installed (wordnet-base): everyday names beyond "
                                      "config/language/names.yaml will not ground")
        else:
            self.get_logger().info(f"WordNet loaded in {time.monotonic() - t:.1f} s")
            self._warm_up_uses()

    def _warm_up_uses(self) -> None:
        """What each kind of thing memory holds is for (WordNet glosses through MiniLM, ``language/uses.py``)
        is read on a background thread, so the first "where can I ...?" does not pay seconds for it."""
        if self.store.counts()["entities"] > MAX_WARM_ENTITIES:
            return  # a memory this large warms as it is asked
        labels = {e.label for e in self.store.entities()}
        log = self.get_logger()

        def warm() -> None:
            t = time.monotonic()
            try:
                n = default_uses().warm(labels)
            except Exception as e:  # noqa: BLE001 - requests then read the glosses themselves
                log.warning(f"reading what things are for failed ({type(e).__name__}: {e})")
            else:
                log.info(f"what {n} kinds of thing are for read in {time.monotonic() - t:.1f} s")
            t = time.monotonic()
            try:  # the category map's words as the model reads them (placement of things of no known kind)
                similarity.warm()
            except Exception as e:  # noqa: BLE001 - the first such question then reads them itself
                log.warning(f"reading the category map's words failed ({type(e).__name__}: {e})")
            else:
                log.info(f"category map's words read in {time.monotonic() - t:.1f} s")

        threading.Thread(target=warm, name="uses-warm-up", daemon=True).start()

    # ---- services ------------------------------------------------------------------------------

    def on_ask(self, request: Ask.Request, response: Ask.Response) -> Ask.Response:
        question = self._text(request.question, "question")
        speaker = self._text(request.speaker, "speaker", "max_name_chars")
        as_of = self._time(request.as_of, "as_of")
        if self.llm is not None:
            answer, account = self.llm.answer(self.reader, question, as_of_ns=as_of, speaker=speaker,
                                              conversation=self.conversation)
            self._count_llm(account)
        else:
            answer = answer_question(self.reader, question, as_of_ns=as_of, speaker=speaker,
                                     conversation=self.conversation)
        return conv.fill_ask_response(answer, response)

    def on_plan(self, request: PlanTask.Request, response: PlanTask.Response) -> PlanTask.Response:
        instruction = self._text(request.instruction, "instruction")
        speaker = self._text(request.speaker, "speaker", "max_name_chars")
        robot = self._text(request.robot, "robot", "max_name_chars") or self.robot
        try:
            library = self._library(robot)
        except SkillLibraryError as err:  # names the robots that exist
            raise InvalidInput(str(err)) from None
        except OSError:
            raise InvalidInput(f"the skill library for robot {robot!r} cannot be read") from None
        if self.llm is not None:
            result, account = self.llm.plan(self.reader, library, instruction, robot=robot, speaker=speaker,
                                            conversation=self.conversation)
            self._count_llm(account)
        else:
            result = plan_request(self.reader, library, instruction, robot=robot, speaker=speaker,
                                  conversation=self.conversation)
        response.success = result.success
        response.error = result.error
        if result.success and result.plan is not None:
            # the id a controller echoes in skill_feedback (plan_id), so memory knows which plan a step was of
            response.plan = conv.plan_to_msg(result.plan, self.get_clock().now().nanoseconds,
                                             plan_id=uuid.uuid4().hex)
        return response

    def on_query(self, request: Query.Request, response: Query.Response) -> Query.Response:
        records = query_memory(self.lookup_reader, kind=self._text(request.store, "store", "max_label_chars"),
                               text=self._text(request.text, "text"),
                               room=self._text(request.room, "room", "max_room_chars"),
                               entity_id=self._text(request.entity_id, "entity_id", "max_id_chars"),
                               as_of_ns=self._time(request.as_of, "as_of"),
                               limit=min(request.limit or int(self.p["limits.query_limit"]),
                                         int(self.p["limits.max_query_records"])),
                               since_ns=self._time(request.since, "since"), until_ns=self._time(request.until, "until"))
        response.records = [conv.memory_record_to_msg(r) for r in records]
        return response

    def on_get_scene_graph(self, request: GetSceneGraph.Request, response: GetSceneGraph.Response):
        as_of = self._time(request.as_of, "as_of")
        room = self._text(request.room, "room", "max_room_chars")
        reader = self.lookup_reader
        with reader.snapshot():  # one committed state for both reads
            entities = reader.entities(room=room or None, as_of_ns=as_of)
            relations = reader.relations(as_of_ns=as_of, room=room or None)
        stamp = as_of if as_of is not None else self.get_clock().now().nanoseconds
        response.graph = conv.scene_graph_to_msg(stamp, entities, relations, room=room, complete=bool(room))
        return response

    def on_forget(self, request: Forget.Request, response: Forget.Response) -> Forget.Response:
        response.removed = self.store.forget(
            ids=self.limits.items(request.ids, "ids", "max_id_chars", "max_list_items"),
            room=self._text(request.room, "room", "max_room_chars"), since_ns=self._time(request.since, "since"),
            until_ns=self._time(request.until, "until"), everything=request.everything)
        self.inputs.changed = True
        self.get_logger().info(f"forgot {response.removed} records")
        return response

    def on_sync(self, request: Sync.Request, response: Sync.Response) -> Sync.Response:
        wanted = {"scene_graphs": request.scene_graphs, "skill_feedback": request.skill_feedback,
                  "utterances": request.utterances, "images": request.images, "activities": request.activities}
        try:
            wait = check_seconds(float(request.timeout), "timeout", most=float(self.p["limits.max_sync_wait_s"]))
        except InvalidInput as err:  # Sync has no error field: answered at once, not reached, said in the log
            self.get_logger().warning(f"~/sync refused: {err}", throttle_duration_sec=1.0)
            wait = 0.0
        deadline = time.monotonic() + wait
        with self._counts_changed:
            while True:
                reached = all(self.ingested[k] >= v for k, v in wanted.items())
                remaining = deadline - time.monotonic()
                if reached or remaining <= 0 or self.stopping.is_set():
                    break
                self._counts_changed.wait(timeout=min(remaining, 0.1))
            response.reached = reached
            for k in wanted:
                setattr(response, k, self.ingested[k])
        return response

    def _skill_feedback(self, msg: SkillFeedback) -> None:
        """A step's outcome; one naming a plan is linked to the plan this node published, and one naming a
        plan it never published (or published before a restart) is stored all the same, flagged
        ``plan_known`` false in its event and counted in /diagnostics."""
        plan_id = msg.plan_id.strip()
        known = self.plan_ledger.knows(plan_id) if plan_id else None
        self.inputs.skill_feedback(msg, plan_known=known)
        if known is False:
            self.get_logger().warning(clean_text(f"skill feedback for plan {plan_id[:64]!r}, which this node did "
                                                 f"not publish since it started: stored, flagged unknown"),
                                      throttle_duration_sec=1.0)
        self.plan_ledger.count(known)

    # ---- outputs -------------------------------------------------------------------------------

    def publish_heartbeat(self) -> None:
        if not self.serving:
            return
        msg = Heartbeat(node=self.get_fully_qualified_name(), robot=self.robot, database=self.memory_name,
                        period_s=float(self.p["heartbeat_period"]), active=self.active,
                        sequence=self.heartbeats_sent)
        msg.header.stamp = self.get_clock().now().to_msg()
        msg.started = conv.ns_to_stamp(self.started_ns)
        self.heartbeat_pub.publish(msg)
        self.heartbeats_sent += 1

    def publish_status(self) -> None:
        if self.active:  # inactive (lifecycle): diagnostics only; memory is not written
            try:
                removed = self.store.apply_retention(int(self.p["retention.frames_per_room"]),
                                                     int(float(self.p["retention.max_frame_age_s"]) * 1e9))
            except MemoryNotWritable as err:  # a timer callback must not end the node; the next period retries
                removed = 0
                self.get_logger().error(f"retention: {err}", throttle_duration_sec=5.0)
            if removed:
                self.get_logger().info(f"retention: deleted {removed} frames")
        try:
            counts = self._last_counts = self.store.counts()
        except MemoryUnavailable:
            self.memory_unavailable = True
            counts = self._last_counts or {k: 0 for k in ("entities", "events", "frames")}
        # named with the namespace: two robots' (or a robot's and a simulator's) nodes on one domain differ
        status = DiagnosticStatus(name=conv.diagnostics_name(self.get_fully_qualified_name()),
                                  hardware_id=self.robot)
        total_rejected = sum(self.rejected.values())
        status.level = DiagnosticStatus.OK if total_rejected == 0 else DiagnosticStatus.WARN
        status.message = (f"{counts['entities']} entities, {counts['events']} events, {counts['frames']} frames"
                          + (f"; {total_rejected} inputs rejected" if total_rejected else ""))
        if self.last_write_failed:
            status.level = DiagnosticStatus.ERROR
            status.message = "memory is not writable (disk full or read-only); " + status.message
        if self.memory_unavailable or self.buffered:
            status.level = DiagnosticStatus.ERROR
            status.message = (f"memory unavailable (database unreachable): {len(self.buffered)} messages buffered, "
                              f"written when it is back; " + status.message)
        values = {**{f"stored_{k}": v for k, v in counts.items()},
                  **{f"ingested_{k}": v for k, v in self.ingested.items()},
                  **{f"rejected_{k}": v for k, v in self.rejected.items()},
                  **{f"ignored_{k}": v for k, v in self.ignored.items()},
                  **{f"over_limits.{k}": v for k, v in sorted(self.over_limit.items())}, "active": self.active,
                  "frames_admitted": self.inputs.frames_admitted, "current_room": self.inputs.current_room,
                  "internal_errors": self.internal_errors, "request_timeouts": self.request_timeouts,
                  "storage_errors": self.storage_errors, "memory_unavailable": self.memory_unavailable,
                  "buffered_messages": len(self.buffered), "buffered_total": self.buffered_total,
                  **self.plan_ledger.counts(),
                  "last_error": self.errors[-1] if self.errors else "",
                  "llm_enabled": self.llm is not None, **self.llm_stats.as_dict(), **self.write_times.summary()}
        status.values = [KeyValue(key=k, value=str(v)) for k, v in values.items()]
        diag = DiagnosticArray(status=[status])
        diag.header.stamp = self.get_clock().now().to_msg()
        self.diag_pub.publish(diag)
        if self.active and self.inputs.changed and self.markers_pub.get_subscription_count() > 0:
            try:
                self.markers_pub.publish(self.markers())
                self.inputs.changed = False
            except MemoryUnavailable:
                pass  # drawn again once memory is back

    def markers(self) -> MarkerArray:
        """Memory as RViz shows it (config/memory_node.rviz): see ros/markers.py."""
        return memory_markers(self.store, self.get_clock().now().to_msg())

    def destroy_node(self, companions: bool = True) -> None:
        """Idempotent. ``companions=False`` when a companion's thread could not be joined: its node and the
        LLM reader it uses are then left to the process exit rather than destroyed under a callback."""
        if self._destroyed:
            return
        self._destroyed = True
        self.release(companions=companions)
        super().destroy_node()  # type: ignore[misc]


class MemoryNode(_MemoryNodeBase, Node):
    """The memory node as it always was: configured and active from construction."""

    def __init__(self, **kwargs: Any) -> None:
        Node.__init__(self, "memory_node", **kwargs)
        self._declare()
        self.configure()
        self.active = True


class LifecycleMemoryNode(_MemoryNodeBase, LifecycleNode):
    """The memory node as a managed node (``--lifecycle``), for a lifecycle manager such as nav2's:
    configure opens memory and creates the interfaces, activate serves them, deactivate keeps them but
    ignores inputs (counted in ``/diagnostics`` as ``ignored_<input>``) and refuses requests with
    ``INACTIVE_ERROR``; cleanup and shutdown close memory (every committed message stays). After shutdown
    (state finalized) the process keeps answering ``~/get_state`` until SIGINT/SIGTERM, like an rclcpp
    managed node."""

    def __init__(self, **kwargs: Any) -> None:
        LifecycleNode.__init__(self, "memory_node", **kwargs)
        self._declare()
        self.get_logger().info("managed node: unconfigured, waiting for configure")

    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        try:
            self.configure()
        except Exception as err:  # noqa: BLE001 - a bad parameter or database: the transition fails, said why
            self.get_logger().error(f"configure failed: {type(err).__name__}: {err}")
            return TransitionCallbackReturn.FAILURE
        self.start_companions()
        self.start_heartbeat()  # services answer (refusing while inactive): heartbeats say so, active false
        self.get_logger().info("configured (inactive: inputs ignored, requests refused until activated)")
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.active = True
        self.inputs.changed = True
        self.get_logger().info(self.ready_line())
        self.publish_heartbeat()  # active now: clients need not wait a period to know
        return super().on_activate(state)

    def on_deactivate(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.active = False
        self.publish_heartbeat()
        self.get_logger().info("inactive: inputs ignored, requests refused until activated")
        return super().on_deactivate(state)

    def on_cleanup(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.release()
        self.get_logger().info("cleaned up: memory closed (unconfigured)")
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.release()
        self.get_logger().info("shut down: memory closed (finalized)")
        return TransitionCallbackReturn.SUCCESS

    def on_error(self, state: LifecycleState) -> TransitionCallbackReturn:
        self.release()  # back to unconfigured, from which configure may be tried again
        return TransitionCallbackReturn.SUCCESS


def main(args: list[str] | None = None) -> int:
    """Serve until SIGINT or SIGTERM, then stop cleanly and return 0, whenever the signal came.

    ``--lifecycle`` (before ``--ros-args``) makes it a managed node (``LifecycleMemoryNode``) that waits
    for a lifecycle manager's transitions; without it the node configures and activates itself.

    Order of clean-up: the companions' executor threads are stopped and joined, then the main executor,
    then the nodes are destroyed (the store closed) and the context shut down; signals meanwhile are
    ignored (memory_node/ros/shutdown.py says why rclpy's own handlers are not used)."""
    signals = ShutdownSignals.install()
    log = rclpy.logging.get_logger("memory_node")
    if signals.requested:  # during the imports: nothing to clean up yet
        signals.ignore_further()
        log.info(f"{signals.signal_name} during start-up: exiting before serving")
        return 0
    argv = list(sys.argv if args is None else args)
    managed = "--lifecycle" in rclpy.utilities.remove_ros_args(argv)[1:]
    rclpy.init(args=argv, signal_handler_options=SignalHandlerOptions.NO)
    node: _MemoryNodeBase | None = None
    executor: SingleThreadedExecutor | None = None
    companions_joined = True
    try:
        node = LifecycleMemoryNode() if managed else MemoryNode()
        log = node.get_logger()
        if signals.requested:
            log.info(f"{signals.signal_name} during start-up: exiting before serving")
            return 0
        node.start_companions()  # (a managed node has none yet: it starts them when configured)
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        if not managed:
            node.announce_ready()
        spin_until_shutdown(executor, signals)
        if signals.requested:
            log.info(f"{signals.signal_name}: shutting down")
        return 0
    except ExternalShutdownException:
        return 0
    except (StartupError, ParameterError) as err:  # the robot, the file or a parameter, not a bug: one line
        log.error(str(err))
        return 1
    except (IncompatibleMemory, MemoryNotWritable, MemoryInUse) as err:
        log.error(f"cannot use memory: {err}")
        return 1
    finally:
        signals.ignore_further()
        if node is not None:
            companions_joined = node.stop_companions()
        if executor is not None:
            executor.shutdown(timeout_sec=0)
        if node is not None:
            node.destroy_node(companions=companions_joined)
        rclpy.try_shutdown()


if __name__ == "__main__":
    raise SystemExit(main())
