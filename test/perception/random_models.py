"""Learned models with random weights, built from their configs and saved like real checkpoints, so the tests
load them through the same by-path code a user's weights go through (no weights ship or download here).

Importable because conftest puts this folder on sys.path; the offline test also runs it in a fresh
interpreter. Random weights give arbitrary detections: tests check the plumbing, not accuracy."""

from __future__ import annotations

from functools import partial
from pathlib import Path

#: class names written into the random YOLO checkpoints, so tests can tell the model's names were used
YOLO_NAMES = {i: f"test thing {i}" for i in range(80)}

#: the name under which the tiny SAM architecture is registered in segment_anything.sam_model_registry
TINY_SAM = "tiny_test"


def save_random_yolo(config: str, path: Path, seed: int = 0) -> Path:
    """An ultralytics model built from ``config`` (e.g. ``yolov8n-seg.yaml``, shipped inside ultralytics, so
    offline) with random weights and ``YOLO_NAMES``, saved as a ``.pt`` checkpoint."""
    import torch

    from memory_node.perception.yolo_detector import import_ultralytics

    torch.manual_seed(seed)
    model = import_ultralytics().YOLO(config)
    model.model.names = dict(YOLO_NAMES)
    model.save(str(path))
    return path


def build_tiny_sam(checkpoint: str | None = None):
    """SAM with ViT-B's layout (same prompt encoder and mask decoder, 1024-px input) but a one-block, 32-wide
    image encoder, so the encoder runs in well under a second: same call signature as the registry's
    builders, which load a state dict from ``checkpoint``."""
    import torch
    from segment_anything.modeling import ImageEncoderViT, MaskDecoder, PromptEncoder, Sam, TwoWayTransformer

    sam = Sam(
        image_encoder=ImageEncoderViT(depth=1, embed_dim=32, img_size=1024, mlp_ratio=4,
                                      norm_layer=partial(torch.nn.LayerNorm, eps=1e-6), num_heads=1,
                                      patch_size=16, qkv_bias=True, use_rel_pos=True, global_attn_indexes=(0,),
                                      window_size=14, out_chans=256),
        prompt_encoder=PromptEncoder(embed_dim=256, image_embedding_size=(64, 64), input_image_size=(1024, 1024),
                                     mask_in_chans=16),
        mask_decoder=MaskDecoder(num_multimask_outputs=3,
                                 transformer=TwoWayTransformer(depth=2, embedding_dim=256, mlp_dim=2048, num_heads=8),
                                 transformer_dim=256, iou_head_depth=3, iou_head_hidden_dim=256),
        pixel_mean=[123.675, 116.28, 103.53], pixel_std=[58.395, 57.12, 57.375])
    sam.eval()
    if checkpoint is not None:
        with open(checkpoint, "rb") as f:
            sam.load_state_dict(torch.load(f))
    return sam


def register_tiny_sam() -> None:
    from segment_anything import sam_model_registry

    sam_model_registry[TINY_SAM] = build_tiny_sam


def save_tiny_sam(path: Path, seed: int = 0) -> Path:
    """The tiny SAM's random weights as a state dict, the format of Meta's ``sam_vit_b_01ec64.pth``."""
    import torch

    torch.manual_seed(seed)
    torch.save(build_tiny_sam().state_dict(), path)
    return path
