"""Turn raw camera images into what frame memory stores: compressed bytes plus a tiny grey thumbnail that
the admission gate compares to reject near-duplicates without decoding stored frames."""

from __future__ import annotations

import cv2
import numpy as np

from memory_node.core.models import InvalidInput

THUMBNAIL_SIZE = 16

# ROS image encodings we accept and how to get a BGR (or grey) 8-bit image from them for OpenCV
_COLOR_CONVERSIONS = {
    "rgb8": cv2.COLOR_RGB2BGR,
    "rgba8": cv2.COLOR_RGBA2BGR,
    "bgra8": cv2.COLOR_BGRA2BGR,
    "bgr8": None,
    "mono8": None,
    "8uc1": None,
    "8uc3": None,
}


def to_bgr8(image: np.ndarray, encoding: str) -> np.ndarray:
    enc = encoding.lower()
    if enc in ("mono16", "16uc1"):
        # scale to the image's own range: enough for a thumbnail and a human-viewable frame
        image = cv2.normalize(image, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
        enc = "mono8"
    if enc not in _COLOR_CONVERSIONS:
        raise InvalidInput(f"unsupported image encoding {encoding!r}; supported: "
                           f"{', '.join(sorted(_COLOR_CONVERSIONS))}, mono16, 16uc1")
    if image.dtype != np.uint8:
        raise InvalidInput(f"image data type {image.dtype} does not match encoding {encoding!r}")
    code = _COLOR_CONVERSIONS[enc]
    return cv2.cvtColor(image, code) if code is not None else image


def thumbnail(bgr_or_grey: np.ndarray) -> list[float]:
    grey = bgr_or_grey if bgr_or_grey.ndim == 2 else cv2.cvtColor(bgr_or_grey, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (THUMBNAIL_SIZE, THUMBNAIL_SIZE), interpolation=cv2.INTER_AREA)
    return [float(v) for v in small.reshape(-1)]


def encode_frame(image: np.ndarray, encoding: str, jpeg_quality: int = 85) -> tuple[bytes, list[float]]:
    """Raw image -> (JPEG bytes, thumbnail). Raises InvalidInput for images OpenCV cannot take."""
    if image.ndim not in (2, 3) or image.shape[0] == 0 or image.shape[1] == 0:
        raise InvalidInput(f"image has an unusable shape {image.shape}")
    bgr = to_bgr8(np.ascontiguousarray(image), encoding)
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
    if not ok:
        raise InvalidInput("could not JPEG-encode the image")
    return buf.tobytes(), thumbnail(bgr)


def decode_compressed(data: bytes) -> tuple[np.ndarray, str, list[float]]:
    """Compressed image bytes -> (BGR image, 'jpg' | 'png', thumbnail); InvalidInput when corrupt."""
    arr = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(arr, cv2.IMREAD_COLOR) if arr.size else None
    if image is None:
        raise InvalidInput("compressed image could not be decoded (corrupt or unsupported format)")
    fmt = "png" if data[:8] == b"\x89PNG\r\n\x1a\n" else "jpg"
    return image, fmt, thumbnail(image)
