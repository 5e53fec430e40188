"""segment-anything as a ``MaskStage``: pixel boxes in, masks out (SAM prompted with each box).

Off the live path on a CPU: SAM's image encoder runs once per image and takes ~47 s for ViT-B on this
2-core machine; prompting it with a box afterwards is cheap (the mask decoder). So this is an on-demand
refiner: give it one frame and a few boxes (the new objects of a frame, a best view to keep), not every
frame of a camera stream. Asking again about the same frame reuses the image embedding, and at most
``max_boxes`` boxes are prompted per call (the rest get None, as the interface allows). On a GPU
(``device="cuda"``) the encoder takes a fraction of a second and ``BoxesThenMasks(YoloDetector(...),
SamMaskStage(...))`` can run per frame.

The checkpoint comes by path (Meta's ``sam_vit_b_01ec64.pth`` and friends, or any state dict of the same
architecture); ``model_type`` names the architecture in ``segment_anything.sam_model_registry``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memory_node.core.models import InvalidInput

from .camera import RgbdFrame
from .detection import MaskStage, PixelBox
from .yolo_detector import check_weights


class SamMaskStage(MaskStage):
    name = "sam"

    def __init__(self, checkpoint: str | Path, *, model_type: str = "vit_b", device: str = "cpu",
                 max_boxes: int = 8, threads: int | None = None) -> None:
        if max_boxes < 1:
            raise InvalidInput(f"max_boxes must be at least 1, got {max_boxes}")
        self.checkpoint = check_weights(checkpoint, "segment-anything", (".pth", ".pt"))
        try:
            import torch
            from segment_anything import SamPredictor, sam_model_registry
        except ImportError as exc:
            raise InvalidInput("the SAM mask stage needs segment-anything (pip install -r "
                               f"requirements-detectors.txt): {exc}") from exc
        if model_type not in sam_model_registry:
            raise InvalidInput(f"unknown SAM model type {model_type!r}; known: {sorted(sam_model_registry)}")
        if threads is not None:
            if threads < 1:
                raise InvalidInput(f"threads must be at least 1, got {threads}")
            torch.set_num_threads(threads)
        try:
            sam = sam_model_registry[model_type](checkpoint=str(self.checkpoint))
        except Exception as exc:  # unpickling errors, or a state dict of another architecture (size mismatch)
            raise InvalidInput(f"segment-anything: cannot load {str(self.checkpoint)!r} as a {model_type!r} "
                               f"checkpoint: {type(exc).__name__}: {str(exc)[:300]}") from exc
        sam.to(device)
        self._torch = torch
        self.predictor = SamPredictor(sam)
        self.model_type = model_type
        self.device = device
        self.max_boxes = max_boxes
        self._image_key: tuple | None = None  # which frame the predictor's embedding belongs to

    def _set_frame(self, frame: RgbdFrame) -> None:
        # the same frame asked about again keeps its embedding (the expensive part); id() guards against a
        # different image that happens to carry the same stamp
        key = (frame.stamp_ns, frame.frame_id, id(frame.rgb), frame.rgb.shape)
        if key != self._image_key:
            self.predictor.set_image(frame.rgb, image_format="RGB")
            self._image_key = key

    def masks(self, frame: RgbdFrame, boxes: Sequence[PixelBox]) -> list[np.ndarray | None]:
        if not boxes:
            return []
        todo = list(boxes)[: self.max_boxes]
        self._set_frame(frame)
        h, w = frame.rgb.shape[:2]
        xyxy = np.array([[b.x0, b.y0, b.x1, b.y1] for b in todo], dtype=np.float32)
        torch = self._torch
        with torch.inference_mode():
            prompts = self.predictor.transform.apply_boxes_torch(
                torch.as_tensor(xyxy, device=self.predictor.device), (h, w))
            # one box is not ambiguous: one mask per box (SAM's authors' advice for box prompts)
            found, _, _ = self.predictor.predict_torch(None, None, boxes=prompts, multimask_output=False)
        found = found[:, 0].cpu().numpy()
        out: list[np.ndarray | None] = []
        for b, mask in zip(todo, found):
            # SAM may spill past the prompt; keep what lies in the box, which is what the box detector claimed
            inside = np.zeros((h, w), dtype=bool)
            inside[b.y0:b.y1, b.x0:b.x1] = mask[b.y0:b.y1, b.x0:b.x1]
            out.append(inside if inside.any() else None)
        out.extend([None] * (len(boxes) - len(todo)))
        return out
