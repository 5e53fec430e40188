"""Latency of the learned detectors on this machine: ultralytics YOLO per frame, segment-anything per image and box.

    python -m memory_node.perception.detector_bench --yolo yolov8n-seg.pt        # your weights
    python -m memory_node.perception.detector_bench --random                     # random-weight models, offline
    python -m memory_node.perception.detector_bench --random --sam-frames 1      # + SAM ViT-B (~1 min per image)

``--random`` builds YOLOv8n-seg, YOLOv8n and (with ``--sam-frames``) SAM ViT-B from their configs with random
weights in a temporary folder and loads them by path, as real weights would be: latency does not depend on
the weights. Frames are the synthetic kitchen rendered at each ``--sizes``. Printed: load time, and the median
and p90 wall and CPU ms of ``detect`` per frame (CPU time is what other jobs on a shared machine do not
inflate); for SAM the image encoder (once per image) and the box prompts (per call of ``masks``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .detection import Detector, MaskStage, PixelBox
from .synthetic import head_camera, kitchen_scene


def _frames(width: int, height: int, n: int):
    k, pose = head_camera(width, height)
    scene = kitchen_scene()
    return [scene.render(k, pose, stamp_ns=i + 1, color_noise=3.0, seed=i) for i in range(n)]


def _stats(values: list[float]) -> str:
    return f"median {np.median(values):7.1f} ms, p90 {np.percentile(values, 90):7.1f} ms"


def time_detector(det: Detector, frames, warmup: int = 2) -> tuple[list[float], list[float], int]:
    wall, cpu, found = [], [], 0
    for i, f in enumerate(frames):
        t0, c0 = time.perf_counter(), time.process_time()
        dets = det.detect(f)
        if i >= warmup:
            wall.append((time.perf_counter() - t0) * 1e3)
            cpu.append((time.process_time() - c0) * 1e3)
            found += len(dets)
    return wall, cpu, found


def time_sam(stage: MaskStage, frames, boxes: int) -> tuple[list[float], list[float]]:
    encode, prompt = [], []
    for f in frames:
        h, w = f.rgb.shape[:2]
        bs = [PixelBox(w // 8 * (i % 4), h // 4, w // 8 * (i % 4) + w // 4, h // 4 + h // 3) for i in range(boxes)]
        t0 = time.perf_counter()
        stage.masks(f, bs[:1])  # first call on a frame: image encoder + one prompt
        encode.append((time.perf_counter() - t0) * 1e3)
        t0 = time.perf_counter()
        stage.masks(f, bs)  # same frame: the embedding is reused, only the prompts run
        prompt.append((time.perf_counter() - t0) * 1e3)
    return encode, prompt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--yolo", action="append", default=[], help="YOLO weights (.pt); repeatable")
    ap.add_argument("--sam", help="SAM checkpoint (.pth)")
    ap.add_argument("--sam-type", default="vit_b")
    ap.add_argument("--random", action="store_true", help="random-weight YOLOv8n-seg and YOLOv8n (and SAM ViT-B)")
    ap.add_argument("--sizes", default="320x240,640x480")
    ap.add_argument("--frames", type=int, default=20, help="timed frames per size and model")
    ap.add_argument("--sam-frames", type=int, default=0, help="images for SAM (each costs its encoder)")
    ap.add_argument("--sam-boxes", type=int, default=4, help="box prompts per SAM call")
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    args = ap.parse_args(argv)
    sizes = [tuple(int(v) for v in s.lower().split("x")) for s in args.sizes.split(",")]

    import torch

    from .yolo_detector import YoloDetector, import_ultralytics

    torch.set_num_threads(args.threads)
    tmp = tempfile.TemporaryDirectory()
    yolos = list(args.yolo)
    sam, sam_type = args.sam, args.sam_type
    if args.random:
        ul = import_ultralytics()
        for cfg in ("yolov8n-seg.yaml", "yolov8n.yaml"):
            path = Path(tmp.name) / cfg.replace(".yaml", "-random.pt")
            ul.YOLO(cfg).save(str(path))
            yolos.append(str(path))
        if args.sam_frames and not sam:
            from segment_anything import sam_model_registry

            sam = str(Path(tmp.name) / f"sam_{sam_type}_random.pth")
            torch.save(sam_model_registry[sam_type]().state_dict(), sam)
    print(f"detector bench: synthetic kitchen, torch {torch.__version__}, {torch.get_num_threads()} threads")
    for weights in yolos:
        t0 = time.perf_counter()
        det = YoloDetector(weights, threads=args.threads, image_size=320)
        print(f"\n{Path(weights).name} ({det.model.task}): loaded + warm-up in {time.perf_counter() - t0:.1f} s")
        for w, h in sizes:
            # inference size follows the frame's long side, as a user would configure it
            det = YoloDetector(weights, threads=args.threads, image_size=max(32, (max(w, h) + 31) // 32 * 32))
            wall, cpu, found = time_detector(det, _frames(w, h, args.frames + 2))
            print(f"  {w}x{h}: detect wall {_stats(wall)}; CPU {_stats(cpu)}; {found} detections")
    if sam and args.sam_frames:
        from .sam_masks import SamMaskStage

        t0 = time.perf_counter()
        stage = SamMaskStage(sam, model_type=sam_type, max_boxes=args.sam_boxes)
        print(f"\nSAM {sam_type}: loaded in {time.perf_counter() - t0:.1f} s")
        for w, h in sizes[:1]:
            encode, prompt = time_sam(stage, _frames(w, h, args.sam_frames), args.sam_boxes)
            print(f"  {w}x{h}: first call (image encoder + 1 box) {_stats(encode)}; "
                  f"{args.sam_boxes} boxes on the same image {_stats(prompt)}")
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
